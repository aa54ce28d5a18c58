//! Compression behind `node:zlib`: gzip, deflate (zlib-wrapped and raw) and
//! their inverses, on whole buffers. Errors carry zlib's own texts and
//! codes, which Node exposes and libraries match on.

use std::io::{Read, Write};

use deno_core::{JsBuffer, op2};
use deno_error::JsErrorBox;
use flate2::Compression;

fn compress(format: &str, data: &[u8], level: Compression) -> std::io::Result<Vec<u8>> {
    match format {
        "gzip" => {
            let mut encoder = flate2::write::GzEncoder::new(Vec::new(), level);
            encoder.write_all(data)?;
            encoder.finish()
        }
        "deflate" => {
            let mut encoder = flate2::write::ZlibEncoder::new(Vec::new(), level);
            encoder.write_all(data)?;
            encoder.finish()
        }
        _ => {
            let mut encoder = flate2::write::DeflateEncoder::new(Vec::new(), level);
            encoder.write_all(data)?;
            encoder.finish()
        }
    }
}

fn decompress(format: &str, data: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    match format {
        "gunzip" => flate2::read::MultiGzDecoder::new(data).read_to_end(&mut out)?,
        "inflate" => flate2::read::ZlibDecoder::new(data).read_to_end(&mut out)?,
        "inflateRaw" => flate2::read::DeflateDecoder::new(data).read_to_end(&mut out)?,
        // unzip: gzip or zlib, told apart by gzip's magic bytes.
        _ if data.starts_with(&[0x1f, 0x8b]) => flate2::read::MultiGzDecoder::new(data).read_to_end(&mut out)?,
        _ => flate2::read::ZlibDecoder::new(data).read_to_end(&mut out)?,
    };
    Ok(out)
}

/// zlib looks at the header before anything else, so bad magic is a data
/// error even when the input is also too short.
fn header_error(operation: &str, data: &[u8]) -> Option<&'static str> {
    let gzip = data.len() >= 2 && data[0] == 0x1f && data[1] == 0x8b;
    let zlib = data.len() >= 2 && data[0] & 0x0f == 8 && (u16::from(data[0]) * 256 + u16::from(data[1])) % 31 == 0;
    let complete_header = data.len() >= 2;
    match operation {
        "gunzip" if complete_header && !gzip => Some("incorrect header check"),
        "inflate" if complete_header && !zlib => Some("incorrect header check"),
        "unzip" if complete_header && !gzip && !zlib => Some("incorrect header check"),
        _ => None,
    }
}

/// Runs one whole-buffer zlib operation (`gzip`, `deflate`, `deflateRaw`,
/// `gunzip`, `inflate`, `inflateRaw`, `unzip`); `level` -1 is zlib's default.
#[op2]
#[buffer]
pub fn op_pihost_zlib(#[string] operation: &str, #[buffer] data: JsBuffer, level: i32) -> Result<Vec<u8>, JsErrorBox> {
    let level = u32::try_from(level)
        .map(|level| Compression::new(level.min(9)))
        .unwrap_or_default();
    if let Some(text) = header_error(operation, &data) {
        return Err(JsErrorBox::generic(format!("Z_DATA_ERROR: {text}")));
    }
    let result = match operation {
        "gzip" | "deflate" | "deflateRaw" => compress(operation, &data, level),
        "gunzip" | "inflate" | "inflateRaw" | "unzip" => decompress(operation, &data),
        other => return Err(JsErrorBox::type_error(format!("unknown zlib operation {other}"))),
    };
    result.map_err(|error| {
        let text = if error.kind() == std::io::ErrorKind::UnexpectedEof {
            "unexpected end of file"
        } else if operation == "gunzip" {
            "incorrect header check"
        } else {
            "invalid stored block lengths"
        };
        // The JS side turns "Z_CODE: text" into an Error with Node's code and errno.
        let code = if text == "unexpected end of file" {
            "Z_BUF_ERROR"
        } else {
            "Z_DATA_ERROR"
        };
        JsErrorBox::generic(format!("{code}: {text}"))
    })
}
