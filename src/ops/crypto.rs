//! Hashes, HMACs and randomness behind `node:crypto` and the web `crypto`
//! global. The JS side keeps Node's objects (Hash, Hmac) and error texts;
//! the work on bytes is done here.

use deno_core::{JsBuffer, op2};
use deno_error::JsErrorBox;
use hmac::{Hmac, Mac};
use rand::RngCore;
use sha2::Digest;

/// The digest algorithms pihost provides, by Node's names.
fn digest(algorithm: &str, data: &[u8]) -> Option<Vec<u8>> {
    Some(match algorithm {
        "md5" => md5::Md5::digest(data).to_vec(),
        "sha1" => sha1::Sha1::digest(data).to_vec(),
        "sha224" => sha2::Sha224::digest(data).to_vec(),
        "sha256" => sha2::Sha256::digest(data).to_vec(),
        "sha384" => sha2::Sha384::digest(data).to_vec(),
        "sha512" => sha2::Sha512::digest(data).to_vec(),
        _ => return None,
    })
}

fn keyed<M: Mac + hmac::digest::KeyInit>(key: &[u8], data: &[u8]) -> Vec<u8> {
    // HMAC takes keys of any length, so construction cannot fail.
    match <M as hmac::digest::KeyInit>::new_from_slice(key) {
        Ok(mut mac) => {
            mac.update(data);
            mac.finalize().into_bytes().to_vec()
        }
        Err(_) => Vec::new(),
    }
}

fn hmac(algorithm: &str, key: &[u8], data: &[u8]) -> Option<Vec<u8>> {
    Some(match algorithm {
        "md5" => keyed::<Hmac<md5::Md5>>(key, data),
        "sha1" => keyed::<Hmac<sha1::Sha1>>(key, data),
        "sha224" => keyed::<Hmac<sha2::Sha224>>(key, data),
        "sha256" => keyed::<Hmac<sha2::Sha256>>(key, data),
        "sha384" => keyed::<Hmac<sha2::Sha384>>(key, data),
        "sha512" => keyed::<Hmac<sha2::Sha512>>(key, data),
        _ => return None,
    })
}

/// Whether `createHash`/`createHmac` know the algorithm (lower-case name).
#[op2(fast)]
pub fn op_pihost_crypto_supports(#[string] algorithm: &str) -> bool {
    digest(algorithm, b"").is_some()
}

/// The digest of `data`.
#[op2]
#[buffer]
pub fn op_pihost_crypto_digest(#[string] algorithm: &str, #[buffer] data: JsBuffer) -> Result<Vec<u8>, JsErrorBox> {
    digest(algorithm, &data).ok_or_else(|| JsErrorBox::generic("Digest method not supported"))
}

/// The HMAC of `data` under `key`.
#[op2]
#[buffer]
pub fn op_pihost_crypto_hmac(
    #[string] algorithm: &str,
    #[buffer] key: JsBuffer,
    #[buffer] data: JsBuffer,
) -> Result<Vec<u8>, JsErrorBox> {
    hmac(algorithm, &key, &data).ok_or_else(|| JsErrorBox::generic("Invalid digest: ".to_string() + algorithm))
}

/// Fills `buffer` with cryptographically strong random bytes.
#[op2(fast)]
pub fn op_pihost_crypto_random_fill(#[buffer] buffer: &mut [u8]) {
    rand::rngs::OsRng.fill_bytes(buffer);
}
