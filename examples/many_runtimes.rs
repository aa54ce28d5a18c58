//! Creates runtimes one after another until one fails; prints where, with the
//! process's open file descriptors (engine note 6).
fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio");
    for i in 0..400 {
        let options = pihost::EngineOptions::for_cwd(std::path::Path::new("."));
        if i % 50 == 0 {
            let fds = std::fs::read_dir("/proc/self/fd").map(|d| d.count()).unwrap_or(0);
            println!("iteration {i}: {fds} open fds");
        }
        let result = if std::env::args().any(|arg| arg == "--thread-per-runtime") {
            std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("tokio");
                runtime.block_on(pihost::Engine::new(options)).map(|_| ())
            })
            .join()
            .expect("thread")
        } else {
            runtime.block_on(pihost::Engine::new(options)).map(|_| ())
        };
        if let Err(error) = result {
            println!("iteration {i}: {error}");
            return;
        }
    }
    println!("ok");
}
