//! Replays files through one target: `cargo run -p attnlab-fuzz --example replay -- TARGET FILE…`
//! (a crash's panic or the allocator's abort shows where it happens).

#[global_allocator]
static ALLOC: attnlab_fuzz::alloc::Capped = attnlab_fuzz::alloc::Capped;

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_default();
    let target = attnlab_fuzz::target(&name).expect("a target's name");
    for file in args {
        let bytes = std::fs::read(&file).expect("a readable file");
        let start = std::time::Instant::now();
        (target.run)(&bytes);
        eprintln!("{file}: passed in {:?}", start.elapsed());
    }
}
