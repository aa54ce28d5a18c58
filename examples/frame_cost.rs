//! What a frame of an extension component costs (issue 14): a key sent to
//! the focused component, its render through pi-tui's SelectList (40 items,
//! 20 shown, at 80 columns), and the frame handed to the host
//! (`Pihost::send_key` then `Pihost::take_frames`), round trip, in one
//! process.
//!
//!   cargo run --release --example frame_cost
use std::time::{Duration, Instant};

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio");
    runtime.block_on(async {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let fixture = root.join("benches/fixtures/ui/picker.ts").display().to_string();
        let pihost = pihost::Pihost::start(pihost::EngineOptions::for_cwd(root))
            .await
            .expect("start");
        let report = pihost.load(&[fixture]).await.expect("load");
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        pihost
            .bind(
                std::sync::Arc::new(pihost::host::RecordingHost::new()),
                &pihost::host::HostState::default(),
            )
            .await
            .expect("bind");
        pihost
            .attach_terminal(pihost::ui::TerminalSize { columns: 80, rows: 24 })
            .await
            .expect("a screen");
        let command = {
            let pihost = pihost.clone();
            tokio::spawn(async move { pihost.run_command("pick", "").await })
        };
        pihost.wait_for_component().await.expect("the picker opens");
        let first = pihost.take_frames().await.expect("the first frame");
        assert_eq!(first.len(), 1, "one first frame");
        let keys = pihost
            .key_sequences(&["down".to_string(), "up".to_string()])
            .await
            .expect("key sequences");
        const ROUNDS: usize = 2_000;
        let mut times = Vec::with_capacity(ROUNDS);
        let mut lines = 0;
        for round in 0..ROUNDS {
            let started = Instant::now();
            pihost.send_key(&keys[round % 2]).await.expect("a key");
            let frames = pihost.take_frames().await.expect("frames");
            times.push(started.elapsed());
            assert_eq!(frames.len(), 1, "every key draws one frame");
            lines = frames[0].lines.len();
        }
        pihost.send_key("\r").await.expect("enter");
        let answer = command.await.expect("the command task").expect("the command");
        assert!(answer.is_some(), "the picker answered");
        times.sort();
        let micros = |duration: Duration| duration.as_secs_f64() * 1e6;
        println!(
            "key + render + frame ({lines} lines at 80 columns): median {:.0} µs, p90 {:.0} µs ({ROUNDS} keys)",
            micros(times[ROUNDS / 2]),
            micros(times[ROUNDS * 9 / 10])
        );
    });
}
