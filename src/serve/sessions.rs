//! Several sessions in one `pihost serve` process, each addressed by id
//! (issue 24): a request names its session in `params.session`, and what
//! pihost sends for a session (host requests and notifications, tool
//! updates, extension errors) carries the same member. A request without one
//! is for the default session, so an agent that speaks to one session never
//! sees the member at all. Each session is isolated: a runtime of its own on
//! a thread of its own, its own agent host, its own order of changes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::watch;

/// Which session a message is for: `None` is the default session.
pub(super) type SessionKey = Option<String>;

/// Takes the session a request names out of its params (so that the
/// method's own params decode as before).
pub(super) fn take_session(params: &mut Value) -> Result<SessionKey, String> {
    let Some(object) = params.as_object_mut() else {
        return Ok(None);
    };
    match object.remove("session") {
        None => Ok(None),
        Some(Value::String(id)) if !id.is_empty() => Ok(Some(id)),
        Some(other) => Err(format!(
            "params.session must be a non-empty string, a session's id, not {other}"
        )),
    }
}

/// `params` with the session it is for, when that is not the default one.
pub(super) fn addressed(session: &SessionKey, mut params: Value) -> Value {
    if let (Some(id), Some(object)) = (session, params.as_object_mut()) {
        object.insert("session".to_string(), Value::String(id.clone()));
    }
    params
}

/// How a session is named in an error message.
pub(super) fn describe(session: &SessionKey) -> String {
    match session {
        Some(id) => format!("session {id:?}"),
        None => "the default session".to_string(),
    }
}

/// The live sessions of a process, by key. A session is in it from its
/// `initialize` until its `shutdown`.
pub(super) struct Registry<S> {
    sessions: Mutex<HashMap<SessionKey, Arc<S>>>,
}

impl<S> Default for Registry<S> {
    fn default() -> Self {
        Self {
            sessions: Mutex::new(HashMap::new()),
        }
    }
}

impl<S> Registry<S> {
    pub(super) fn get(&self, key: &SessionKey) -> Option<Arc<S>> {
        self.sessions.lock().ok()?.get(key).cloned()
    }

    /// The session under `key`, made by `make` when there is none.
    pub(super) fn get_or_insert(&self, key: &SessionKey, make: impl FnOnce() -> S) -> Option<Arc<S>> {
        let mut sessions = self.sessions.lock().ok()?;
        Some(sessions.entry(key.clone()).or_insert_with(|| Arc::new(make())).clone())
    }

    pub(super) fn remove(&self, key: &SessionKey) -> Option<Arc<S>> {
        self.sessions.lock().ok()?.remove(key)
    }

    /// Takes every session out (the process is ending).
    pub(super) fn drain(&self) -> Vec<(SessionKey, Arc<S>)> {
        self.sessions
            .lock()
            .map(|mut sessions| sessions.drain().collect())
            .unwrap_or_default()
    }

    pub(super) fn contains(&self, key: &SessionKey) -> bool {
        self.sessions.lock().is_ok_and(|sessions| sessions.contains_key(key))
    }
}

/// The ends of the order one session's requests keep: its changes
/// (initialize, load, bind, …, its shutdown) take effect in the order they
/// were sent, every request of the session starting after those before it;
/// its screen's requests keep their order among themselves. Sessions never
/// wait on one another.
pub(super) struct Gates {
    pub(super) session: watch::Receiver<bool>,
    pub(super) screen: watch::Receiver<bool>,
}

impl Gates {
    fn open() -> Self {
        let (done, gate) = watch::channel(true);
        drop(done);
        Self {
            session: gate.clone(),
            screen: gate,
        }
    }

    /// Whether nothing of the session is waited for any more.
    fn idle(&self) -> bool {
        let open = |gate: &watch::Receiver<bool>| *gate.borrow() || gate.has_changed().is_err();
        open(&self.session) && open(&self.screen)
    }
}

/// Every session's gates. An agent that opens and closes sessions without
/// end must not grow this: idle gates of sessions that are gone are swept.
#[derive(Default)]
pub(super) struct AllGates {
    by_session: HashMap<SessionKey, Gates>,
    sweep_at: usize,
}

const SWEEP_AT_LEAST: usize = 64;

impl AllGates {
    /// The gates of `key`'s session; the gates of sessions that are gone
    /// and wait for nothing are forgotten first, now and then.
    pub(super) fn of<S>(&mut self, key: &SessionKey, live: &Registry<S>) -> &mut Gates {
        if self.by_session.len() >= self.sweep_at.max(SWEEP_AT_LEAST) {
            self.by_session
                .retain(|session, gates| !gates.idle() || live.contains(session));
            self.sweep_at = 2 * self.by_session.len();
        }
        self.by_session.entry(key.clone()).or_insert_with(Gates::open)
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.by_session.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_request_names_its_session_and_keeps_its_own_params() {
        let mut params = json!({ "session": "b", "event": { "type": "input" } });
        assert_eq!(take_session(&mut params), Ok(Some("b".to_string())));
        assert_eq!(params, json!({ "event": { "type": "input" } }));
        let mut none = Value::Null;
        assert_eq!(take_session(&mut none), Ok(None));
        for wrong in [
            json!({ "session": "" }),
            json!({ "session": 7 }),
            json!({ "session": null }),
        ] {
            let mut wrong = wrong;
            assert!(take_session(&mut wrong).is_err(), "{wrong}");
        }
    }

    #[test]
    fn only_other_sessions_are_named_in_what_pihost_sends() {
        assert_eq!(addressed(&None, json!({ "a": 1 })), json!({ "a": 1 }));
        assert_eq!(
            addressed(&Some("s1".into()), json!({ "a": 1 })),
            json!({ "a": 1, "session": "s1" })
        );
    }

    #[test]
    fn gates_of_sessions_that_are_gone_are_swept() {
        let live: Registry<()> = Registry::default();
        live.get_or_insert(&Some("kept".into()), || ());
        let mut gates = AllGates::default();
        gates.of(&Some("kept".into()), &live);
        // A session gone with a change still running keeps its gates.
        let (busy, busy_gate) = watch::channel(false);
        gates.of(&Some("busy".into()), &live).session = busy_gate;
        for n in 0..10_000 {
            gates.of(&Some(format!("gone-{n}")), &live);
        }
        assert!(gates.len() <= 2 * SWEEP_AT_LEAST, "{} gates kept", gates.len());
        assert!(gates.by_session.contains_key(&Some("kept".into())));
        assert!(gates.by_session.contains_key(&Some("busy".into())));
        drop(busy);
    }
}
