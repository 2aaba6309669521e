//! Finding the JSON in a model's answer: behind a preamble ("Here is the
//! JSON:"), inside a Markdown code fence, or bare.

use serde_json::Value;

/// The first JSON object in `text` that parses completely, preferring the
/// content of a ```json fence. None when there is none (truncated or
/// refused answers).
pub fn locate(text: &str) -> Option<Value> {
    let mut candidates: Vec<&str> = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        let body_start = after.find('\n').map_or(0, |n| n + 1);
        let Some(end) = after[body_start..].find("```") else {
            break;
        };
        candidates.push(&after[body_start..body_start + end]);
        rest = &after[body_start + end + 3..];
    }
    candidates.push(text);
    for c in candidates {
        for (i, _) in c.match_indices('{') {
            let mut de = serde_json::Deserializer::from_str(&c[i..]).into_iter::<Value>();
            if let Some(Ok(v)) = de.next() {
                if v.is_object() {
                    return Some(v);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_json_wherever_the_model_put_it() {
        let bare = r#"{"a": 1}"#;
        assert_eq!(locate(bare).unwrap()["a"], 1);
        let preamble =
            "Sure! Here is the analysis you asked for:\n\n{\"a\": {\"b\": [1, 2]}}\nHope it helps.";
        assert_eq!(locate(preamble).unwrap()["a"]["b"][1], 2);
        let fenced = "Result:\n```json\n{\"a\": \"x } y\"}\n```\n";
        assert_eq!(locate(fenced).unwrap()["a"], "x } y");
        // Braces in prose before the JSON are skipped.
        let noisy = "Note {not json} then {\"a\": true}";
        assert_eq!(locate(noisy).unwrap()["a"], true);
        assert_eq!(locate("{\"a\": [1, 2"), None, "truncated");
        assert_eq!(locate("I can't help with that."), None);
    }
}
