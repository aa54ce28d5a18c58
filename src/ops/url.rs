//! WHATWG URL parsing and setters behind the `URL` global and `node:url`,
//! by the `url` crate (the same standard browsers and Node follow).

use deno_core::op2;
use url::{Url, quirks};

/// A parsed URL's components, as the `URL` class exposes them.
#[derive(serde::Serialize)]
pub struct UrlParts {
    href: String,
    origin: String,
    protocol: String,
    username: String,
    password: String,
    host: String,
    hostname: String,
    port: String,
    pathname: String,
    search: String,
    hash: String,
}

fn parts(url: &Url) -> UrlParts {
    UrlParts {
        href: quirks::href(url).to_string(),
        origin: quirks::origin(url),
        protocol: quirks::protocol(url).to_string(),
        username: quirks::username(url).to_string(),
        password: quirks::password(url).to_string(),
        host: quirks::host(url).to_string(),
        hostname: quirks::hostname(url).to_string(),
        port: quirks::port(url).to_string(),
        pathname: quirks::pathname(url).to_string(),
        search: quirks::search(url).to_string(),
        hash: quirks::hash(url).to_string(),
    }
}

fn parse(href: &str, base: Option<&str>) -> Option<Url> {
    match base {
        Some(base) => Url::parse(base).ok()?.join(href).ok(),
        None => Url::parse(href).ok(),
    }
}

/// The components of `href` (against `base`), or null when it is not a URL.
#[op2]
#[serde]
pub fn op_pihost_url_parse(#[string] href: &str, #[string] base: Option<String>) -> Option<UrlParts> {
    parse(href, base.as_deref()).map(|url| parts(&url))
}

/// The components after setting one of them as the `URL` setters do; a
/// value the standard ignores leaves the URL as it was.
#[op2]
#[serde]
pub fn op_pihost_url_set(#[string] href: &str, #[string] component: &str, #[string] value: &str) -> Option<UrlParts> {
    let mut url = Url::parse(href).ok()?;
    match component {
        "href" => {
            url = Url::parse(value).ok()?;
        }
        "protocol" => {
            let _ = quirks::set_protocol(&mut url, value);
        }
        "username" => {
            let _ = quirks::set_username(&mut url, value);
        }
        "password" => {
            let _ = quirks::set_password(&mut url, value);
        }
        "host" => {
            let _ = quirks::set_host(&mut url, value);
        }
        "hostname" => {
            let _ = quirks::set_hostname(&mut url, value);
        }
        "port" => {
            let _ = quirks::set_port(&mut url, value);
        }
        "pathname" => quirks::set_pathname(&mut url, value),
        "search" => quirks::set_search(&mut url, value),
        "hash" => quirks::set_hash(&mut url, value),
        _ => return None,
    }
    Some(parts(&url))
}

/// Whether `href` parses (against `base`): `URL.canParse`.
#[op2]
pub fn op_pihost_url_can_parse(#[string] href: &str, #[string] base: Option<String>) -> bool {
    parse(href, base.as_deref()).is_some()
}
