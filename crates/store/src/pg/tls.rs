//! TLS to PostgreSQL, with libpq's meanings of `sslmode`: `prefer` (the
//! default) and `require` encrypt without checking the server's
//! certificate; `verify-ca` and `verify-full` check it against the web's
//! roots, or against `sslrootcert=FILE` (PEM) when given.

use std::sync::Arc;
use tokio_postgres_rustls::MakeRustlsConnect;

/// What a URL asks of TLS, taken out of it: the rest goes to the client's
/// own parser, which knows only `disable`, `prefer` and `require`.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct TlsWanted {
    /// Check the server's certificate.
    pub verify: bool,
    /// Roots to check it against, instead of the web's.
    pub root_cert: Option<String>,
}

/// Splits `verify-ca`/`verify-full` and `sslrootcert` off `url`.
pub(crate) fn split(url: &str) -> (String, TlsWanted) {
    let Some((base, query)) = url.split_once('?') else {
        return (url.to_string(), TlsWanted::default());
    };
    let mut wanted = TlsWanted::default();
    let mut kept = Vec::new();
    for p in query.split('&') {
        match p.split_once('=') {
            Some(("sslmode", "verify-ca" | "verify-full")) => {
                wanted.verify = true;
                kept.push("sslmode=require".to_string());
            }
            Some(("sslrootcert", path)) => wanted.root_cert = Some(path.to_string()),
            _ => kept.push(p.to_string()),
        }
    }
    let url = if kept.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    (url, wanted)
}

/// The connector for `wanted`.
pub(crate) fn connector(wanted: &TlsWanted) -> Result<MakeRustlsConnect, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?;
    let config = if wanted.verify {
        let mut roots = rustls::RootCertStore::empty();
        match &wanted.root_cert {
            Some(path) => {
                let pem = std::fs::read(path).map_err(|e| format!("sslrootcert {path}: {e}"))?;
                use rustls::pki_types::{pem::PemObject, CertificateDer};
                for cert in CertificateDer::pem_slice_iter(&pem) {
                    let cert = cert.map_err(|e| format!("sslrootcert {path}: {e}"))?;
                    roots
                        .add(cert)
                        .map_err(|e| format!("sslrootcert {path}: {e}"))?;
                }
            }
            None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
        }
        builder.with_root_certificates(roots).with_no_client_auth()
    } else {
        builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(Unchecked(provider)))
            .with_no_client_auth()
    };
    Ok(MakeRustlsConnect::new(config))
}

/// `sslmode=require`: the channel is encrypted, the server unchecked (as
/// libpq does); signatures are still checked, so the handshake is real.
#[derive(Debug)]
struct Unchecked(Arc<rustls::crypto::CryptoProvider>);

impl rustls::client::danger::ServerCertVerifier for Unchecked {
    fn verify_server_cert(
        &self,
        _end_entity: &rustls::pki_types::CertificateDer<'_>,
        _intermediates: &[rustls::pki_types::CertificateDer<'_>],
        _server_name: &rustls::pki_types::ServerName<'_>,
        _ocsp_response: &[u8],
        _now: rustls::pki_types::UnixTime,
    ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
        Ok(rustls::client::danger::ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &rustls::pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &rustls::pki_types::CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verify_modes_and_root_files_are_taken_out_of_the_url() {
        let (url, wanted) = split("postgres://u@h/db?sslmode=verify-full&sslrootcert=/ca.pem&x=1");
        assert_eq!(url, "postgres://u@h/db?sslmode=require&x=1");
        assert_eq!(
            wanted,
            TlsWanted {
                verify: true,
                root_cert: Some("/ca.pem".into())
            }
        );
        let (url, wanted) = split("postgres://u@h/db?sslmode=require");
        assert_eq!(url, "postgres://u@h/db?sslmode=require");
        assert_eq!(wanted, TlsWanted::default());
    }
}
