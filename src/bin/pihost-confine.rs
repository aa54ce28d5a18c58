//! The launcher of confined programs (`src/confine.rs`) as a small binary
//! of its own: starting it costs a spawn far less than starting the whole
//! `pihost` executable, which the launcher would otherwise be.
fn main() {
    pihost::confine::run_launcher_if_asked();
    eprintln!(
        "pihost-confine: pihost starts this to run a program confined to a sandbox's grants; it is not run by hand"
    );
    std::process::exit(2);
}
