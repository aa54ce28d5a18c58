//! JSON text the isolate hands to Rust (call answers, host requests).
//! A JavaScript string may hold half of a surrogate pair (a string cut by
//! UTF-16 units, as `slice` cuts), which JSON.stringify writes as a lone
//! `\\uD8xx` escape and serde_json refuses: a Rust string cannot hold one.
//! Such an escape becomes U+FFFD, as V8 writes one when it makes UTF-8.

use serde::de::DeserializeOwned;

/// `json` parsed; on failure, parsed again with lone surrogate escapes replaced.
pub(crate) fn parse<T: DeserializeOwned>(json: &str) -> serde_json::Result<T> {
    serde_json::from_str(json).or_else(|error| match with_lone_surrogates_replaced(json) {
        Some(repaired) => serde_json::from_str(&repaired),
        None => Err(error),
    })
}

/// `json` with each `\u` escape of half a surrogate pair (JSON.stringify's
/// form of a string cut inside a pair, which serde_json refuses) replaced by
/// U+FFFD, as V8 replaces them when it writes UTF-8; `None` when it has none.
fn with_lone_surrogates_replaced(json: &str) -> Option<String> {
    fn escaped_unit(bytes: &[u8], at: usize) -> Option<u16> {
        let hex = bytes.get(at..at + 6)?;
        if hex[0] != b'\\' || hex[1] != b'u' {
            return None;
        }
        u16::from_str_radix(std::str::from_utf8(&hex[2..]).ok()?, 16).ok()
    }
    let bytes = json.as_bytes();
    let mut repaired = String::with_capacity(json.len());
    let mut copied = 0;
    let mut index = 0;
    let mut replaced = false;
    while index < bytes.len() {
        if bytes[index] != b'\\' {
            index += 1;
            continue;
        }
        let Some(unit) = escaped_unit(bytes, index) else {
            // Any other escape: skip the escaped character (it may be a backslash).
            index += 2;
            continue;
        };
        let high = (0xD800..0xDC00).contains(&unit);
        let paired = high && escaped_unit(bytes, index + 6).is_some_and(|low| (0xDC00..0xE000).contains(&low));
        if paired {
            index += 12;
        } else if high || (0xDC00..0xE000).contains(&unit) {
            repaired.push_str(&json[copied..index]);
            repaired.push_str("\\ufffd");
            index += 6;
            copied = index;
            replaced = true;
        } else {
            index += 6;
        }
    }
    replaced.then(|| {
        repaired.push_str(&json[copied..]);
        repaired
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_of_surrogate_pairs_become_replacement_characters_and_pairs_stay() {
        let replaced = |json: &str| with_lone_surrogates_replaced(json);
        assert_eq!(replaced(r#"{"a":"x\ud800y"}"#).as_deref(), Some(r#"{"a":"x\ufffdy"}"#));
        assert_eq!(
            replaced(r#"["\udc00","\ud83d"]"#).as_deref(),
            Some(r#"["\ufffd","\ufffd"]"#)
        );
        // A whole pair, an escaped backslash before "ud800" and plain text are left alone.
        assert_eq!(replaced(r#"["\ud83d\ude00","\\ud800","\u00e9\n"]"#), None);
        let parsed: serde_json::Value = parse(r#"{"text":"cut \ud83d"}"#).expect("parsed");
        assert_eq!(parsed, serde_json::json!({ "text": "cut \u{fffd}" }));
        assert!(
            parse::<serde_json::Value>(r#"{"text":"#).is_err(),
            "other errors stay errors"
        );
    }
}
