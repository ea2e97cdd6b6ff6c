//! `checkers-fit-net H1 H2 EPOCHS SCALE OUT [--variant V] [--results W] FILE...`: trains a
//! variant's evaluation network (`eval/english-net.bin` or `eval/russian-net.bin`, English
//! unless `--variant russian` comes before the files; the engine expects H1 = 128, H2 = 32) on sample
//! files of `checkers-tune generate` and `checkers-tune rescore`, to predict the search's
//! scores (as a win probability on the logistic curve of SCALE, 1.22 for the fitted tables);
//! `--results W` blends the games' results into the targets of the files after it, weight W
//! (0 until given; files of perturbed positions, whose result is a placeholder, take 0). Plain
//! stochastic gradient descent (Adam, batches of 1024) in f32 on one thread; every tenth
//! block of 1000 samples is held out and its loss printed after each epoch, and the network
//! is written to OUT after each epoch as little-endian u32 H1, H2 then the f32 weights.

// Backpropagation reads best with the layers' indices written out.
#![allow(clippy::needless_range_loop)]

use checkers_engine::tune::{parse_samples, sigmoid as win_probability, split_held_out, Sample};
use checkers_engine::{evaluate_with, network_inputs, Weights};
use checkers_rules::{Color, Position, Variant};

const INPUTS: usize = 256;

struct Row {
    feats: Vec<u16>,
    target: f32,
    base: f32, // table eval for mover, hundredths of a man
}

/// The indices of the inputs that are on, as the engine reads them.
fn features(p: &Position) -> Vec<u16> {
    let mut f = Vec::with_capacity(24);
    for (plane, bits) in (0u16..).zip(network_inputs(p)) {
        let mut x = bits;
        while x != 0 {
            f.push(plane * 64 + x.trailing_zeros() as u16);
            x &= x - 1;
        }
    }
    f
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn read(variant: Variant, path: &str) -> Vec<Sample> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("cannot read {path}: {e}");
        std::process::exit(1)
    });
    parse_samples(variant, &text)
}

struct Net {
    h1: usize,
    h2: usize,
    w1: Vec<f32>, // INPUTS x h1
    b1: Vec<f32>,
    w2: Vec<f32>, // h1 x h2
    b2: Vec<f32>,
    w3: Vec<f32>, // h2
    b3: f32,
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn uniform(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn sym(&mut self, a: f32) -> f32 {
        (self.uniform() * 2.0 - 1.0) * a
    }
}

impl Net {
    fn new(h1: usize, h2: usize, rng: &mut Rng) -> Net {
        let a1 = (1.0 / 12.0f32).sqrt();
        let a2 = (3.0 / h1 as f32).sqrt();
        let a3 = (3.0 / h2 as f32).sqrt();
        Net {
            h1,
            h2,
            w1: (0..INPUTS * h1).map(|_| rng.sym(a1)).collect(),
            b1: (0..h1).map(|_| 0.5).collect(),
            w2: (0..h1 * h2).map(|_| rng.sym(a2)).collect(),
            b2: vec![0.0; h2],
            w3: (0..h2).map(|_| rng.sym(a3) * 0.1).collect(),
            b3: 0.0,
        }
    }
    fn params(&self) -> usize {
        self.w1.len() + self.b1.len() + self.w2.len() + self.b2.len() + self.w3.len() + 1
    }
    // returns output (in men) and activations
    fn forward(&self, f: &[u16], a1: &mut [f32], z1: &mut [f32], a2: &mut [f32], z2: &mut [f32]) -> f32 {
        z1.copy_from_slice(&self.b1);
        for &i in f {
            let row = &self.w1[i as usize * self.h1..(i as usize + 1) * self.h1];
            for (z, w) in z1.iter_mut().zip(row) {
                *z += w;
            }
        }
        for (a, z) in a1.iter_mut().zip(z1.iter()) {
            *a = z.clamp(0.0, 1.0);
        }
        z2.copy_from_slice(&self.b2);
        for j in 0..self.h1 {
            let a = a1[j];
            if a == 0.0 {
                continue;
            }
            let row = &self.w2[j * self.h2..(j + 1) * self.h2];
            for (z, w) in z2.iter_mut().zip(row) {
                *z += a * w;
            }
        }
        for (a, z) in a2.iter_mut().zip(z2.iter()) {
            *a = z.clamp(0.0, 1.0);
        }
        let mut o = self.b3;
        for (a, w) in a2.iter().zip(&self.w3) {
            o += a * w;
        }
        o
    }
}

struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}
impl Adam {
    fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n] }
    }
    fn step(&mut self, params: &mut [f32], grads: &[f32], lr: f32, t: i32) {
        let (b1, b2) = (0.9f32, 0.999f32);
        let c1 = 1.0 - b1.powi(t);
        let c2 = 1.0 - b2.powi(t);
        for i in 0..params.len() {
            let g = grads[i];
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * g;
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * g * g;
            params[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
        }
    }
}

/// What the command line asks for.
struct Args {
    h1: usize,
    h2: usize,
    epochs: usize,
    scale: f64,
    out: String,
    variant: Variant,
    samples: Vec<Sample>,
}

/// Reads the command line and the sample files it names (exits with a message on an error).
fn parse_args() -> Args {
    let args: Vec<String> = std::env::args().collect();
    let number = |i: usize| args.get(i).and_then(|a| a.parse::<f64>().ok());
    let (Some(h1), Some(h2), Some(epochs), Some(scale), Some(out)) =
        (number(1), number(2), number(3), number(4), args.get(5))
    else {
        eprintln!("usage: checkers-fit-net H1 H2 EPOCHS SCALE OUT [--variant V] [--results W] FILE...");
        std::process::exit(2);
    };
    let mut samples = Vec::new();
    let mut result_weight = 0.0;
    let mut variant = Variant::English;
    let mut rest = args[6..].iter();
    while let Some(arg) = rest.next() {
        if arg == "--variant" {
            match rest.next().and_then(|v| v.parse::<Variant>().ok()) {
                Some(v) if samples.is_empty() => variant = v,
                _ => {
                    eprintln!("--variant takes english or russian, before the files");
                    std::process::exit(2);
                }
            }
            continue;
        }
        if arg == "--results" {
            match rest.next().and_then(|w| w.parse::<f64>().ok()).filter(|w| (0.0..=1.0).contains(w)) {
                Some(w) => result_weight = w,
                None => {
                    eprintln!("--results takes a weight from 0 to 1");
                    std::process::exit(2);
                }
            }
            continue;
        }
        samples.extend(read(variant, arg).into_iter().map(|s| blend_result(s, result_weight, scale)));
    }
    let (h1, h2, epochs) = (h1 as usize, h2 as usize, epochs as usize);
    Args { h1, h2, epochs, scale, out: out.clone(), variant, samples }
}

/// The samples as rows to fit, seen from the side to move, with the fitted tables' scores.
fn to_rows(samples: &[Sample], weights: &Weights, scale: f64) -> Vec<Row> {
    samples
        .iter()
        .map(|s| {
            let white = s.position.turn() == Color::White;
            let res = if white { s.result } else { 1.0 - s.result };
            let score = s.search.map(|x| if white { x } else { -x });
            let target = score.map_or(res, |cp| win_probability(cp, scale));
            Row {
                feats: features(&s.position),
                target: target as f32,
                base: evaluate_with(&s.position, weights) as f32,
            }
        })
        .collect()
}

/// The mean squared error of the fitted tables' predictions.
fn table_loss(rows: &[Row], sc: f32) -> f64 {
    rows.iter().map(|r| (sigmoid(sc * r.base / 100.0) - r.target).powi(2) as f64).sum::<f64>()
        / rows.len().max(1) as f64
}

/// The mean squared error of the network's predictions.
fn net_loss(net: &Net, rows: &[Row], sc: f32) -> f64 {
    let mut act = Activations::new(net.h1, net.h2);
    rows.iter()
        .map(|r| {
            let o = act.forward(net, r);
            (sigmoid(sc * (100.0 * o) / 100.0) - r.target).powi(2) as f64
        })
        .sum::<f64>()
        / rows.len().max(1) as f64
}

/// One sample's activations (before and after clipping) and the loss's derivatives by the
/// hidden layers' sums.
struct Activations {
    a1: Vec<f32>,
    z1: Vec<f32>,
    a2: Vec<f32>,
    z2: Vec<f32>,
    d1: Vec<f32>,
    d2: Vec<f32>,
}

impl Activations {
    fn new(h1: usize, h2: usize) -> Activations {
        Activations {
            a1: vec![0.0; h1],
            z1: vec![0.0; h1],
            a2: vec![0.0; h2],
            z2: vec![0.0; h2],
            d1: vec![0.0; h1],
            d2: vec![0.0; h2],
        }
    }

    fn forward(&mut self, net: &Net, row: &Row) -> f32 {
        net.forward(&row.feats, &mut self.a1, &mut self.z1, &mut self.a2, &mut self.z2)
    }
}

/// The gradients of a batch, laid out as the network's weights (`w3` ends with `b3`'s).
struct Gradients {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    w3: Vec<f32>,
}

impl Gradients {
    fn new(net: &Net) -> Gradients {
        Gradients {
            w1: vec![0.0; net.w1.len()],
            b1: vec![0.0; net.h1],
            w2: vec![0.0; net.w2.len()],
            b2: vec![0.0; net.h2],
            w3: vec![0.0; net.h2 + 1],
        }
    }

    fn all(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut())
            .chain(self.b2.iter_mut())
            .chain(self.w3.iter_mut())
    }
}

/// Adds one row's gradient to `g` (backpropagation); returns its squared error.
fn backpropagate(net: &Net, r: &Row, sc: f32, act: &mut Activations, g: &mut Gradients) -> f32 {
    let (h1, h2) = (net.h1, net.h2);
    let o = act.forward(net, r);
    let Activations { a1, z1, a2, z2, d1, d2 } = act;
    // The output in hundredths of a man, on the curve of the scale as the engine's scores are.
    let p = sigmoid(sc * (100.0 * o) / 100.0);
    let e = p - r.target;
    // d loss / d o
    let d_o = 2.0 * e * p * (1.0 - p) * sc;
    for k in 0..h2 {
        g.w3[k] += d_o * a2[k];
        d2[k] = if z2[k] > 0.0 && z2[k] < 1.0 { d_o * net.w3[k] } else { 0.0 };
    }
    g.w3[h2] += d_o;
    for (g, d) in g.b2.iter_mut().zip(d2.iter()) {
        *g += d;
    }
    for j in 0..h1 {
        let row = &net.w2[j * h2..(j + 1) * h2];
        let mut s = 0.0;
        for k in 0..h2 {
            s += row[k] * d2[k];
        }
        d1[j] = if z1[j] > 0.0 && z1[j] < 1.0 { s } else { 0.0 };
        if a1[j] != 0.0 {
            let grow = &mut g.w2[j * h2..(j + 1) * h2];
            for k in 0..h2 {
                grow[k] += a1[j] * d2[k];
            }
        }
    }
    for (g, d) in g.b1.iter_mut().zip(d1.iter()) {
        *g += d;
    }
    for &i in &r.feats {
        let grow = &mut g.w1[i as usize * h1..(i as usize + 1) * h1];
        for (g, d) in grow.iter_mut().zip(d1.iter()) {
            *g += d;
        }
    }
    e * e
}

/// One Adam optimiser for each of the network's weight vectors.
struct Optimiser {
    w1: Adam,
    b1: Adam,
    w2: Adam,
    b2: Adam,
    w3: Adam,
    /// Steps taken.
    t: i32,
}

impl Optimiser {
    fn new(net: &Net) -> Optimiser {
        Optimiser {
            w1: Adam::new(net.w1.len()),
            b1: Adam::new(net.h1),
            w2: Adam::new(net.w2.len()),
            b2: Adam::new(net.h2),
            w3: Adam::new(net.h2 + 1),
            t: 0,
        }
    }

    fn step(&mut self, net: &mut Net, g: &Gradients, lr: f32) {
        self.t += 1;
        let t = self.t;
        self.w1.step(&mut net.w1, &g.w1, lr, t);
        self.b1.step(&mut net.b1, &g.b1, lr, t);
        self.w2.step(&mut net.w2, &g.w2, lr, t);
        self.b2.step(&mut net.b2, &g.b2, lr, t);
        let mut w3b = net.w3.clone();
        w3b.push(net.b3);
        self.w3.step(&mut w3b, &g.w3, lr, t);
        net.b3 = w3b[net.h2];
        w3b.truncate(net.h2);
        net.w3 = w3b;
    }
}

/// One pass over the shuffled rows in batches of 1024; returns the sum of the squared errors.
fn train_epoch(net: &mut Net, train: &[Row], sc: f32, lr: f32, optimiser: &mut Optimiser) -> f64 {
    let mut act = Activations::new(net.h1, net.h2);
    let mut grads = Gradients::new(net);
    let mut total = 0.0f64;
    for chunk in train.chunks(1024) {
        grads.all().for_each(|g| *g = 0.0);
        for r in chunk {
            total += backpropagate(net, r, sc, &mut act, &mut grads) as f64;
        }
        let n = chunk.len() as f32;
        grads.all().for_each(|g| *g /= n);
        optimiser.step(net, &grads, lr);
    }
    total
}

fn main() {
    let Args { h1, h2, epochs, scale, out, variant, samples } = parse_args();
    let (train_s, held_s) = split_held_out(samples);
    let weights = *Weights::of(variant);
    let sc = scale as f32;
    let mut train = to_rows(&train_s, &weights, scale);
    let held = to_rows(&held_s, &weights, scale);
    eprintln!(
        "{} train {} held scale {scale:.3}; tables: train {:.6} held {:.6}",
        train.len(),
        held.len(),
        table_loss(&train, sc),
        table_loss(&held, sc)
    );
    let mut rng = Rng(0x9E3779B97F4A7C15);
    let mut net = Net::new(h1, h2, &mut rng);
    eprintln!("params {}", net.params());
    let mut optimiser = Optimiser::new(&net);
    eprintln!("start: held {:.6}", net_loss(&net, &held, sc));
    for epoch in 0..epochs {
        // shuffle
        for i in (1..train.len()).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            train.swap(i, j);
        }
        let lr = if epoch < epochs * 2 / 3 { 1e-3 } else { 3e-4 };
        let tl = train_epoch(&mut net, &train, sc, lr, &mut optimiser);
        eprintln!(
            "epoch {epoch}: train {:.6} held {:.6}",
            tl / train.len() as f64,
            net_loss(&net, &held, sc)
        );
        write_net(&out, &net);
    }
}

/// The sample with its search score moved toward its game's result: the score whose win
/// probability on the curve of `scale` is the blend of the score's and the result.
fn blend_result(mut sample: Sample, weight: f64, scale: f64) -> Sample {
    if weight > 0.0 {
        if let Some(score) = sample.search {
            let blended = ((1.0 - weight) * win_probability(score, scale) + weight * sample.result)
                .clamp(1e-4, 1.0 - 1e-4);
            sample.search = Some((blended / (1.0 - blended)).ln() * 100.0 / scale);
        }
    }
    sample
}

/// The network as the engine reads it: little-endian u32 H1, H2, then the f32 weights.
fn write_net(path: &str, net: &Net) {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&(net.h1 as u32).to_le_bytes());
    bytes.extend_from_slice(&(net.h2 as u32).to_le_bytes());
    for v in net.w1.iter().chain(&net.b1).chain(&net.w2).chain(&net.b2).chain(&net.w3).chain([&net.b3]) {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    if let Err(e) = std::fs::write(path, bytes) {
        eprintln!("cannot write {path}: {e}");
        std::process::exit(1);
    }
}
