//! `ctx.sessionManager` as an extension reads it: the session the host
//! binds (`HostState::session`), walked as pi walks its own, with what the
//! extension appends (`pi.appendEntry`) in it at once.

mod support;

use std::sync::Arc;

use pihost::host::{HostNotification, HostState, RecordedCall, RecordingHost, SessionState};
use serde_json::{Value, json};
use support::*;

/// An extension whose commands answer what `ctx.sessionManager` says.
const READER: &str = r#"
export default function (pi) {
  const ids = (entries) => entries.map((entry) => entry.id);
  pi.registerCommand("read", {
    handler: async (_args, ctx) => {
      const sm = ctx.sessionManager;
      const tree = sm.getTree();
      return {
        entries: ids(sm.getEntries()),
        branch: ids(sm.getBranch()),
        branchFromB: ids(sm.getBranch("b")),
        leaf: sm.getLeafId(),
        leafEntry: sm.getLeafEntry()?.id,
        entryB: sm.getEntry("b")?.message?.content,
        label: sm.getLabel("a"),
        sessionId: sm.getSessionId(),
        header: sm.getHeader(),
        file: sm.getSessionFile(),
        dir: sm.getSessionDir(),
        cwd: sm.getCwd(),
        name: sm.getSessionName(),
        roots: tree.map((node) => node.entry.id),
        childrenOfRoot: tree[0]?.children.map((node) => node.entry.id),
        labelInTree: tree[0]?.children.find((node) => node.entry.id === "a")?.label,
      };
    },
  });
  pi.registerCommand("save", {
    handler: async (args, ctx) => {
      pi.appendEntry("note", { text: args });
      const entries = ctx.sessionManager.getEntries();
      return { last: entries.at(-1), leaf: ctx.sessionManager.getLeafId(), branch: ids(ctx.sessionManager.getBranch()) };
    },
  });
  pi.registerCommand("project", {
    handler: async (_args, ctx) => {
      const sm = ctx.sessionManager;
      const projection = sm.buildSessionProjection();
      return {
        contextEntries: ids(sm.buildContextEntries()),
        projection: {
          entries: projection.entries.map((entry) => [entry.sourceEntry.id, entry.messages]),
          messages: projection.messages,
          thinkingLevel: projection.thinkingLevel,
          model: projection.model,
        },
        name: sm.getSessionName(),
        piName: pi.getSessionName(),
      };
    },
  });
}
"#;

fn message(id: &str, parent: Option<&str>, role: &str, content: &str, timestamp: &str) -> Value {
    json!({
        "type": "message",
        "id": id,
        "parentId": parent,
        "timestamp": timestamp,
        "message": { "role": role, "content": content },
    })
}

/// A session with two branches from `r` (`r → a → c` and `r → b`), `a`
/// labelled, and the leaf on `c`.
fn branched_session() -> SessionState {
    SessionState {
        header: Some(json!({
            "type": "session", "version": 3, "id": "session-1",
            "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/projects/demo",
        })),
        entries: vec![
            message("r", None, "user", "root", "2026-01-01T00:00:01.000Z"),
            message("a", Some("r"), "assistant", "first answer", "2026-01-01T00:00:02.000Z"),
            message("b", Some("r"), "assistant", "other answer", "2026-01-01T00:00:04.000Z"),
            message("c", Some("a"), "user", "go on", "2026-01-01T00:00:03.000Z"),
            json!({ "type": "label", "id": "l", "parentId": "c", "timestamp": "2026-01-01T00:00:05.000Z", "targetId": "a", "label": "start" }),
        ],
        leaf_id: Some("c".to_string()),
        session_file: Some("/sessions/demo.jsonl".to_string()),
        session_dir: Some("/sessions".to_string()),
        cwd: None,
    }
}

async fn bound(project: &Project, session: SessionState) -> (pihost::Pihost, Arc<RecordingHost>) {
    let path = project.write("reader.ts", READER);
    let pihost = pihost::Pihost::start(project.options()).await.expect("start");
    pihost.load(&[path]).await.expect("load");
    let host = Arc::new(RecordingHost::new());
    let state = HostState {
        session: Some(session),
        ..HostState::default()
    };
    pihost.bind(host.clone(), &state).await.expect("bind");
    (pihost, host)
}

#[test]
fn an_extension_reads_the_bound_session_as_pi_s_session_manager_answers() {
    let project = Project::new();
    runtime().block_on(async {
        let (pihost, _host) = bound(&project, branched_session()).await;
        let read = pihost.run_command("read", "").await.expect("read").expect("an answer");
        assert_eq!(
            read["entries"],
            json!(["r", "a", "b", "c", "l"]),
            "every entry of every branch"
        );
        assert_eq!(
            read["branch"],
            json!(["r", "a", "c"]),
            "root to the leaf the host named"
        );
        assert_eq!(read["branchFromB"], json!(["r", "b"]));
        assert_eq!(read["leaf"], "c");
        assert_eq!(read["leafEntry"], "c");
        assert_eq!(read["entryB"], "other answer");
        assert_eq!(read["label"], "start", "the label entry labels a");
        assert_eq!(read["sessionId"], "session-1");
        assert_eq!(read["header"]["cwd"], "/projects/demo");
        assert_eq!(read["file"], "/sessions/demo.jsonl");
        assert_eq!(read["dir"], "/sessions");
        assert_eq!(
            read["cwd"], "/projects/demo",
            "the header's cwd when the host names none"
        );
        assert_eq!(read.get("name"), None, "no session_info entry: no name");
        assert_eq!(read["roots"], json!(["r"]));
        assert_eq!(read["childrenOfRoot"], json!(["a", "b"]), "children oldest first");
        assert_eq!(read["labelInTree"], "start");
    });
}

#[test]
fn an_appended_entry_is_in_the_session_at_once_and_the_host_gets_the_same_entry() {
    let project = Project::new();
    runtime().block_on(async {
        let (pihost, host) = bound(&project, branched_session()).await;
        let saved = pihost
            .run_command("save", "hello")
            .await
            .expect("save")
            .expect("an answer");
        let last = &saved["last"];
        assert_eq!(last["type"], "custom");
        assert_eq!(last["customType"], "note");
        assert_eq!(last["data"], json!({ "text": "hello" }));
        assert_eq!(last["parentId"], "c", "a child of the leaf");
        let id = last["id"].as_str().expect("an id").to_string();
        assert_eq!(id.len(), 8, "pi's short ids: {id}");
        assert_eq!(saved["leaf"], Value::String(id.clone()), "the leaf moves to it");
        assert_eq!(saved["branch"], json!(["r", "a", "c", id]));
        assert!(last["timestamp"].as_str().is_some_and(|stamp| stamp.ends_with('Z')));
        let told: Vec<Value> = host
            .calls()
            .into_iter()
            .filter_map(|call| match call {
                RecordedCall::Notification(HostNotification::AppendEntry { custom_type, entry, .. }) => {
                    assert_eq!(custom_type, "note");
                    entry
                }
                _ => None,
            })
            .collect();
        assert_eq!(told, vec![last.clone()], "the host is given the entry to keep");

        // A second one hangs below the first: the view keeps growing until the host sends the session again.
        let again = pihost
            .run_command("save", "more")
            .await
            .expect("save")
            .expect("an answer");
        assert_eq!(again["last"]["parentId"], Value::String(id));

        // The host's session replaces the view.
        let state = HostState {
            session: Some(SessionState::default()),
            ..HostState::default()
        };
        pihost.set_host_state(&state).await.expect("new state");
        let read = pihost.run_command("read", "").await.expect("read").expect("an answer");
        assert_eq!(read["entries"], json!([]));
        assert_eq!(read["branch"], json!([]));
        assert_eq!(
            read.get("leaf"),
            Some(&Value::Null),
            "an empty session's leaf is null, as pi's"
        );
    });
}

/// `tests/fixtures/session-view.jsonl`'s entries (two branches, a compaction,
/// a context edit, session names), as the host sends them.
fn recorded_session(leaf: &str) -> SessionState {
    let text = std::fs::read_to_string(project_root().join("tests/fixtures/session-view.jsonl")).expect("the fixture");
    let mut lines = text
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).expect("a JSON line"));
    SessionState {
        header: lines.next(),
        entries: lines.collect(),
        leaf_id: Some(leaf.to_string()),
        ..SessionState::default()
    }
}

/// What pi 1.6.0 answered for the same file opened with its SessionManager
/// (recorded by tests/reference/record-pi-packages.mjs), without the keys it
/// described as undefined: they do not cross as JSON.
fn recorded_projection(leaf: &str) -> Value {
    let text =
        std::fs::read_to_string(project_root().join("reference-data/pi-packages-goldens.json")).expect("the goldens");
    let goldens: Value = serde_json::from_str(&text).expect("JSON");
    let mut view =
        goldens["cases"]["SessionManager projection of a branched, compacted, edited session"]["value"][leaf].clone();
    fn drop_undefined(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.retain(|_, item| item != "<undefined>");
                map.values_mut().for_each(drop_undefined);
            }
            Value::Array(items) => items.iter_mut().for_each(drop_undefined),
            _ => {}
        }
    }
    drop_undefined(&mut view);
    assert!(view.is_object(), "a recorded view for leaf {leaf}");
    view
}

#[test]
fn the_context_a_model_sees_is_built_from_the_session_as_pi_builds_it() {
    let project = Project::new();
    runtime().block_on(async {
        for leaf in ["u3", "u4", "a1", "cmp"] {
            let (pihost, _host) = bound(&project, recorded_session(leaf)).await;
            let mut answer = pihost
                .run_command("project", "")
                .await
                .expect("project")
                .expect("an answer");
            let pi_name = answer.as_object_mut().and_then(|fields| fields.remove("piName"));
            assert_eq!(answer, recorded_projection(leaf), "leaf {leaf}");
            assert_eq!(
                pi_name,
                Some(json!("Other branch")),
                "pi.getSessionName() reads the latest session_info of any branch, as pi does"
            );
        }
    });
}

#[test]
fn the_host_s_session_name_counts_only_for_a_session_without_one() {
    let project = Project::new();
    runtime().block_on(async {
        let path = project.write("reader.ts", READER);
        let pihost = pihost::Pihost::start(project.options()).await.expect("start");
        pihost.load(&[path]).await.expect("load");
        let named_by_host = HostState {
            session: Some(branched_session()),
            session_name: Some("Host's name".to_string()),
            ..HostState::default()
        };
        pihost
            .bind(Arc::new(RecordingHost::new()), &named_by_host)
            .await
            .expect("bind");
        let answer = pihost
            .run_command("project", "")
            .await
            .expect("project")
            .expect("an answer");
        assert_eq!(
            answer["piName"], "Host's name",
            "no session_info entry: the host's word"
        );
        assert_eq!(
            answer.get("name"),
            None,
            "ctx.sessionManager answers from the entries only"
        );

        let state = HostState {
            session: Some(recorded_session("u3")),
            session_name: Some("Host's name".to_string()),
            ..HostState::default()
        };
        pihost.set_host_state(&state).await.expect("new state");
        let answer = pihost
            .run_command("project", "")
            .await
            .expect("project")
            .expect("an answer");
        assert_eq!(answer["piName"], "Other branch", "the session's own entry wins");
    });
}

#[test]
fn a_host_without_a_session_gives_an_empty_one() {
    let project = Project::new();
    runtime().block_on(async {
        let path = project.write("reader.ts", READER);
        let pihost = pihost::Pihost::start(project.options()).await.expect("start");
        pihost.load(&[path]).await.expect("load");
        pihost
            .bind(Arc::new(RecordingHost::new()), &HostState::default())
            .await
            .expect("bind");
        let read = pihost.run_command("read", "").await.expect("read").expect("an answer");
        assert_eq!(read["entries"], json!([]));
        assert_eq!(read["header"], Value::Null);
        assert_eq!(read["dir"], "", "pi's in-memory session has no folder");
        assert_eq!(
            read["cwd"],
            Value::String(project.root.path().to_string_lossy().into_owned()),
            "the cwd the extensions were loaded for"
        );
    });
}

#[test]
fn what_an_extension_appended_is_still_in_the_session_after_a_reload() {
    let project = Project::new();
    runtime().block_on(async {
        let (pihost, _host) = bound(&project, branched_session()).await;
        let saved = pihost
            .run_command("save", "kept")
            .await
            .expect("save")
            .expect("an answer");
        let path = project.path("reader.ts").display().to_string();
        pihost.reload(&[path]).await.expect("reload");
        let read = pihost.run_command("read", "").await.expect("read").expect("an answer");
        assert_eq!(
            read["entries"],
            json!(["r", "a", "b", "c", "l", saved["leaf"]]),
            "pi's reload keeps the session"
        );
        assert_eq!(read["leaf"], saved["leaf"]);
    });
}
