//! Go's literals read as Go reads them: strings with their escapes
//! decoded, and `net/http`'s status names as their codes.

use tree_sitter::Node;

/// Decodes a Go string literal node: interpreted strings with escapes
/// decoded, raw strings as written (without carriage returns, as Go does).
pub(super) fn string_literal(n: Node<'_>, src: &[u8]) -> Option<String> {
    let raw = std::str::from_utf8(&src[n.byte_range()]).ok()?;
    match n.kind() {
        "raw_string_literal" => {
            let inner = raw
                .strip_prefix('`')?
                .strip_suffix('`')
                .unwrap_or(&raw[1..]);
            Some(inner.replace('\r', ""))
        }
        _ => {
            let inner = raw.strip_prefix('"')?;
            let inner = inner.strip_suffix('"').unwrap_or(inner);
            Some(decode_escapes(inner))
        }
    }
}

/// Go's escape sequences in interpreted string literals.
pub(super) fn decode_escapes(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let mut out: Vec<u8> = Vec::with_capacity(s.len());
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let c = b[i + 1];
        i += 2;
        let simple = match c {
            b'a' => Some(0x07),
            b'b' => Some(0x08),
            b'f' => Some(0x0c),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'v' => Some(0x0b),
            b'\\' => Some(b'\\'),
            b'\'' => Some(b'\''),
            b'"' => Some(b'"'),
            _ => None,
        };
        if let Some(v) = simple {
            out.push(v);
            continue;
        }
        let hex = |from: usize, n: usize| -> Option<u32> {
            let digits = s.get(from..from + n)?;
            u32::from_str_radix(digits, 16).ok()
        };
        match c {
            b'x' => match hex(i, 2) {
                Some(v) => {
                    out.push(v as u8);
                    i += 2;
                }
                None => out.extend_from_slice(b"\\x"),
            },
            b'u' | b'U' => {
                let n = if c == b'u' { 4 } else { 8 };
                match hex(i, n).and_then(char::from_u32) {
                    Some(ch) => {
                        let mut buf = [0u8; 4];
                        out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        i += n;
                    }
                    None => {
                        out.push(b'\\');
                        out.push(c);
                    }
                }
            }
            b'0'..=b'7' => {
                let digits = s.get(i - 1..i + 2).unwrap_or("");
                match u32::from_str_radix(digits, 8) {
                    Ok(v) if v <= 255 && digits.len() == 3 => {
                        out.push(v as u8);
                        i += 2;
                    }
                    _ => {
                        out.push(b'\\');
                        out.push(c);
                    }
                }
            }
            _ => {
                out.push(b'\\');
                out.push(c);
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `http.StatusX` names → codes (net/http's constants).
pub(super) fn http_status_code(name: &str) -> Option<u16> {
    let code = match name {
        "StatusContinue" => 100,
        "StatusSwitchingProtocols" => 101,
        "StatusProcessing" => 102,
        "StatusEarlyHints" => 103,
        "StatusOK" => 200,
        "StatusCreated" => 201,
        "StatusAccepted" => 202,
        "StatusNonAuthoritativeInfo" => 203,
        "StatusNoContent" => 204,
        "StatusResetContent" => 205,
        "StatusPartialContent" => 206,
        "StatusMultipleChoices" => 300,
        "StatusMovedPermanently" => 301,
        "StatusFound" => 302,
        "StatusSeeOther" => 303,
        "StatusNotModified" => 304,
        "StatusUseProxy" => 305,
        "StatusTemporaryRedirect" => 307,
        "StatusPermanentRedirect" => 308,
        "StatusBadRequest" => 400,
        "StatusUnauthorized" => 401,
        "StatusPaymentRequired" => 402,
        "StatusForbidden" => 403,
        "StatusNotFound" => 404,
        "StatusMethodNotAllowed" => 405,
        "StatusNotAcceptable" => 406,
        "StatusProxyAuthRequired" => 407,
        "StatusRequestTimeout" => 408,
        "StatusConflict" => 409,
        "StatusGone" => 410,
        "StatusLengthRequired" => 411,
        "StatusPreconditionFailed" => 412,
        "StatusRequestEntityTooLarge" => 413,
        "StatusRequestURITooLong" => 414,
        "StatusUnsupportedMediaType" => 415,
        "StatusRequestedRangeNotSatisfiable" => 416,
        "StatusExpectationFailed" => 417,
        "StatusTeapot" => 418,
        "StatusMisdirectedRequest" => 421,
        "StatusUnprocessableEntity" => 422,
        "StatusLocked" => 423,
        "StatusFailedDependency" => 424,
        "StatusTooEarly" => 425,
        "StatusUpgradeRequired" => 426,
        "StatusPreconditionRequired" => 428,
        "StatusTooManyRequests" => 429,
        "StatusRequestHeaderFieldsTooLarge" => 431,
        "StatusUnavailableForLegalReasons" => 451,
        "StatusInternalServerError" => 500,
        "StatusNotImplemented" => 501,
        "StatusBadGateway" => 502,
        "StatusServiceUnavailable" => 503,
        "StatusGatewayTimeout" => 504,
        "StatusHTTPVersionNotSupported" => 505,
        "StatusVariantAlsoNegotiates" => 506,
        "StatusInsufficientStorage" => 507,
        "StatusLoopDetected" => 508,
        "StatusNotExtended" => 510,
        "StatusNetworkAuthenticationRequired" => 511,
        _ => return None,
    };
    Some(code)
}
