//! HTTP behind the `fetch` global, on reqwest: one request per id, the
//! response body read chunk by chunk so JS can stream it, and an abort that
//! reaches both the request and the body reads.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use deno_core::{JsBuffer, OpState, op2};
use deno_error::JsErrorBox;
use tokio::sync::{Mutex, Notify};

/// The clients, made on first use: one follows redirects, one hands them to
/// JS (`redirect: "manual"` and `"error"`).
#[derive(Default)]
pub struct FetchState {
    next_id: u32,
    following: Option<reqwest::Client>,
    manual: Option<reqwest::Client>,
    requests: HashMap<u32, FetchEntry>,
}

struct FetchEntry {
    aborted: Rc<Notify>,
    response: Option<Rc<Mutex<reqwest::Response>>>,
}

/// What JS asks for.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FetchRequest {
    method: String,
    url: String,
    headers: Vec<(String, String)>,
    /// Whether the body argument is the body (an empty one is still sent).
    has_body: bool,
    redirect: String,
}

/// The response head.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FetchResponse {
    status: u16,
    status_text: String,
    headers: Vec<(String, String)>,
    url: String,
    redirected: bool,
}

const ABORTED: &str = "AbortError";

fn client(state: &mut FetchState, follow: bool) -> Result<reqwest::Client, JsErrorBox> {
    let slot = if follow {
        &mut state.following
    } else {
        &mut state.manual
    };
    if let Some(client) = slot {
        return Ok(client.clone());
    }
    let policy = if follow {
        reqwest::redirect::Policy::limited(20)
    } else {
        reqwest::redirect::Policy::none()
    };
    let client = reqwest::Client::builder()
        .redirect(policy)
        .build()
        .map_err(|error| JsErrorBox::generic(error.to_string()))?;
    *slot = Some(client.clone());
    Ok(client)
}

/// A new request id, so JS can abort before the request is even sent.
#[op2(fast)]
#[smi]
pub fn op_pihost_fetch_prepare(state: &mut OpState) -> u32 {
    let fetch = state.borrow_mut::<FetchState>();
    fetch.next_id += 1;
    let id = fetch.next_id;
    fetch.requests.insert(
        id,
        FetchEntry {
            aborted: Rc::new(Notify::new()),
            response: None,
        },
    );
    id
}

fn describe(error: &reqwest::Error) -> String {
    // reqwest's top-level text names only the URL; the cause says what failed.
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text = cause.to_string();
        source = cause.source();
    }
    text
}

/// Sends the request and waits for the response head.
#[op2]
#[serde]
pub async fn op_pihost_fetch_send(
    state: Rc<RefCell<OpState>>,
    #[smi] id: u32,
    #[serde] request: FetchRequest,
    #[buffer] body: JsBuffer,
) -> Result<FetchResponse, JsErrorBox> {
    let (client, aborted) = {
        let mut state = state.borrow_mut();
        let fetch = state.borrow_mut::<FetchState>();
        let aborted = fetch
            .requests
            .get(&id)
            .map(|entry| entry.aborted.clone())
            .ok_or_else(|| JsErrorBox::generic(ABORTED))?;
        (client(fetch, request.redirect == "follow")?, aborted)
    };
    let method = reqwest::Method::from_bytes(request.method.as_bytes())
        .map_err(|_| JsErrorBox::type_error(format!("'{}' is not a valid HTTP method.", request.method)))?;
    let mut builder = client.request(method, &request.url);
    for (name, value) in &request.headers {
        builder = builder.header(name, value);
    }
    if request.has_body {
        builder = builder.body(body.to_vec());
    }
    let response = tokio::select! {
        response = builder.send() => response.map_err(|error| JsErrorBox::generic(describe(&error)))?,
        _ = aborted.notified() => return Err(JsErrorBox::generic(ABORTED)),
    };
    let head = FetchResponse {
        status: response.status().as_u16(),
        status_text: response.status().canonical_reason().unwrap_or("").to_string(),
        headers: response
            .headers()
            .iter()
            .map(|(name, value)| (name.to_string(), String::from_utf8_lossy(value.as_bytes()).into_owned()))
            .collect(),
        url: response.url().to_string(),
        redirected: response.url().as_str() != request.url,
    };
    if let Some(entry) = state.borrow_mut().borrow_mut::<FetchState>().requests.get_mut(&id) {
        entry.response = Some(Rc::new(Mutex::new(response)));
    }
    Ok(head)
}

/// The next chunk of the response body; null at its end.
#[op2]
#[buffer]
pub async fn op_pihost_fetch_read(state: Rc<RefCell<OpState>>, #[smi] id: u32) -> Result<Option<Vec<u8>>, JsErrorBox> {
    let (response, aborted) = {
        let state = state.borrow();
        let entry = state
            .borrow::<FetchState>()
            .requests
            .get(&id)
            .ok_or_else(|| JsErrorBox::generic(ABORTED))?;
        (entry.response.clone(), entry.aborted.clone())
    };
    let Some(response) = response else {
        return Ok(None);
    };
    let mut response = response.lock().await;
    tokio::select! {
        chunk = response.chunk() => match chunk {
            Ok(chunk) => Ok(chunk.map(|bytes| bytes.to_vec())),
            Err(error) => Err(JsErrorBox::generic(describe(&error))),
        },
        _ = aborted.notified() => Err(JsErrorBox::generic(ABORTED)),
    }
}

/// Aborts the request or the body read in flight (and any later one).
#[op2(fast)]
pub fn op_pihost_fetch_abort(state: &mut OpState, #[smi] id: u32) {
    if let Some(entry) = state.borrow_mut::<FetchState>().requests.get(&id) {
        // notify_one keeps a permit when nobody waits yet, so an abort before
        // the send still aborts it.
        entry.aborted.notify_one();
    }
}

/// Drops the response (its connection goes back to the pool or closes).
#[op2(fast)]
pub fn op_pihost_fetch_close(state: &mut OpState, #[smi] id: u32) {
    state.borrow_mut::<FetchState>().requests.remove(&id);
}
