//! Images and the clipboard, as extensions reach them through pi's
//! packages: a real published extension (pi-web-access, installed by
//! scripts/setup into benches/real-packages) fetches an image too large for a
//! model and gets it resized by `resizeImage`; `copyToClipboard` asks the
//! agent, and without one fails with pi's error.

mod support;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::Command;

use serde_json::Value;
use support::*;

/// A PNG of `width`×`height` in four flat colours, compressed with stored
/// (uncompressed) deflate blocks so the test needs no encoder.
fn flat_png(width: u32, height: u32) -> Vec<u8> {
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for byte in bytes {
            crc ^= u32::from(*byte);
            for _ in 0..8 {
                crc = (crc >> 1) ^ (0xedb8_8320 & (!(crc & 1)).wrapping_add(1));
            }
        }
        !crc
    }
    fn adler32(bytes: &[u8]) -> u32 {
        let (mut a, mut b) = (1u32, 0u32);
        for byte in bytes {
            a = (a + u32::from(*byte)) % 65521;
            b = (b + a) % 65521;
        }
        (b << 16) | a
    }
    fn chunk(out: &mut Vec<u8>, kind: &[u8], data: &[u8]) {
        out.extend((data.len() as u32).to_be_bytes());
        let start = out.len();
        out.extend(kind);
        out.extend(data);
        let crc = crc32(&out[start..]);
        out.extend(crc.to_be_bytes());
    }
    let mut rows = Vec::new();
    for y in 0..height {
        rows.push(0);
        for x in 0..width {
            let colour = [(x * 2 / width) as u8 * 200, (y * 2 / height) as u8 * 200, 90];
            rows.extend(colour);
        }
    }
    let mut deflated = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = rows.chunks(65535).collect();
    for (index, block) in blocks.iter().enumerate() {
        deflated.push(u8::from(index + 1 == blocks.len()));
        let length = block.len() as u16;
        deflated.extend(length.to_le_bytes());
        deflated.extend((!length).to_le_bytes());
        deflated.extend(*block);
    }
    deflated.extend(adler32(&rows).to_be_bytes());
    let mut header = Vec::new();
    header.extend(width.to_be_bytes());
    header.extend(height.to_be_bytes());
    header.extend([8, 2, 0, 0, 0]);
    let mut png = vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];
    chunk(&mut png, b"IHDR", &header);
    chunk(&mut png, b"IDAT", &deflated);
    chunk(&mut png, b"IEND", &[]);
    png
}

/// Serves `body` as `image/png` to every request, on a local port.
fn serve_png(body: Vec<u8>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("address").port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            let head = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: image/png\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
        }
    });
    port
}

fn run_tool(extension: &Path, tool: &str, args: &Value, extra: &[&str], env: &[(&str, &Path)]) -> Value {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pihost"));
    command
        .args(["tool", tool, "--args", &args.to_string(), "-e"])
        .arg(extension)
        .args(extra)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("TERMUX_VERSION");
    for (name, value) in env {
        command.env(name, value);
    }
    let (printed, _) = printed_json(&command.output().expect("pihost runs"));
    assert!(printed.get("error").is_none(), "{printed:#}");
    printed
}

#[test]
fn a_real_extension_fetches_an_image_too_large_for_a_model_and_gets_it_resized() {
    let package = project_root().join("benches/real-packages/node_modules/pi-web-access");
    assert!(package.is_dir(), "{} is missing: run scripts/setup", package.display());
    let port = serve_png(flat_png(2400, 600));
    let home = tempfile::tempdir().expect("temp dir");
    // pi-web-access refuses local addresses unless its configuration allows them.
    std::fs::write(
        home.path().join("web-search.json"),
        r#"{ "ssrf": { "allowRanges": ["127.0.0.0/8"] } }"#,
    )
    .expect("config");
    let printed = run_tool(
        &package,
        "fetch_content",
        &serde_json::json!({ "url": format!("http://127.0.0.1:{port}/wide.png") }),
        &[],
        &[("HOME", home.path()), ("PI_CODING_AGENT_DIR", home.path())],
    );
    let content = printed["result"]["content"].as_array().expect("content");
    let image = content
        .iter()
        .find(|part| part["type"] == "image")
        .unwrap_or_else(|| panic!("no image: {printed:#}"));
    assert_eq!(image["mimeType"], "image/png", "{printed:#}");
    let texts: Vec<&str> = content.iter().filter_map(|part| part["text"].as_str()).collect();
    assert!(
        texts
            .iter()
            .any(|text| text.contains("Image fetched (2000×500, image/png)")),
        "{texts:?}"
    );
    // What the model gets is the resized image itself.
    let data = image["data"].as_str().expect("base64");
    let png = decode_base64(data);
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(u32::from_be_bytes([png[16], png[17], png[18], png[19]]), 2000);
    assert_eq!(u32::from_be_bytes([png[20], png[21], png[22], png[23]]), 500);
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text.bytes().filter(|c| *c != b'=').map(value).collect();
    digits
        .chunks(4)
        .flat_map(|group| {
            let bits =
                group.iter().fold(0u32, |bits, digit| (bits << 6) | u32::from(*digit)) << (6 * (4 - group.len()));
            let bytes = bits.to_be_bytes();
            bytes[1..group.len()].to_vec()
        })
        .collect()
}

#[test]
fn copy_to_clipboard_asks_the_agent_and_fails_as_pi_does_without_one() {
    let extension = project_root().join("tests/images/clipboard.ts");
    let args = serde_json::json!({ "text": "ünïcode and\nlines" });

    let copied = run_tool(&extension, "copy", &args, &["--answer", "clipboard.copy=true"], &[]);
    assert_eq!(copied["result"]["content"][0]["text"], "copied", "{copied:#}");
    let calls = copied["hostCalls"].as_array().expect("host calls");
    assert!(
        calls
            .iter()
            .any(|call| call["method"] == "clipboard.copy" && call["text"] == "ünïcode and\nlines"),
        "the agent got the text: {calls:?}"
    );

    // No clipboard from the agent, and no display for a clipboard program.
    let refused = run_tool(&extension, "copy", &args, &[], &[]);
    assert_eq!(
        refused["result"]["content"][0]["text"], "not copied: Clipboard unavailable",
        "{refused:#}"
    );
}
