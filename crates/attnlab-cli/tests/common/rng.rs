//! The tests' seeded randomness: splitmix64 with Box–Muller normals, the same on every
//! platform, and the rounding to f32 that makes a binary (f32) and a reference (f64) read
//! the same numbers.

/// splitmix64 (Steele, Lea, Flood 2014) with Box–Muller normals: tiny,
/// seeded, and the same on every platform.
pub struct Rng(pub u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform integer in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as usize
    }
    pub fn chance(&mut self, p: f64) -> bool {
        self.uniform() < p
    }
    /// Standard normal (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.uniform(); // (0, 1]
        let u2 = self.uniform();
        (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }
    /// `rows × cols` of N(0, sd²), rounded to f32.
    pub fn matrix(&mut self, rows: usize, cols: usize, sd: f64) -> Vec<Vec<f64>> {
        (0..rows)
            .map(|_| (0..cols).map(|_| r32(self.normal() * sd)).collect())
            .collect()
    }
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.range(0, xs.len() - 1)]
    }
    /// `count` distinct indices below `below`, ascending.
    pub fn distinct(&mut self, count: usize, below: usize) -> Vec<usize> {
        let mut all: Vec<usize> = (0..below).collect();
        for i in 0..all.len() {
            let j = self.range(i, all.len() - 1);
            all.swap(i, j);
        }
        let mut out: Vec<usize> = all.into_iter().take(count).collect();
        out.sort_unstable();
        out
    }
}

/// Round to the nearest f32, so both implementations read identical inputs.
pub fn r32(x: f64) -> f64 {
    x as f32 as f64
}
