//! Small neural network evaluations, one a variant, for positions with men: 256 inputs (a
//! man or a king of the side to move or of its opponent on each square, the board turned for
//! Black), 128 then 32 clipped-ReLU units, one output in men. All integer arithmetic after
//! loading, so every instruction set gives the same score (the bench signature depends on it).

use std::sync::OnceLock;

use checkers_rules::{Color, Position, SquareSet, Variant};

const INPUTS: usize = 256;
const H1: usize = 128;
const H2: usize = 32;
// The AVX2 path masks the first layer's activations 32 at a time, one bit a group of four,
// in a 64-bit word.
const _: () = assert!(H1.is_multiple_of(32) && H1 / 4 <= 64);
/// First-layer fixed point: 1.0 is 127, so a clipped activation is a `u8` up to 127.
const Q1: f32 = 127.0;
/// Second-layer weights: 1.0 is 64.
const Q2: f32 = 64.0;
/// Output weights: 1.0 is 256.
const Q3: f32 = 256.0;

/// First-layer rows, one for each bit of the folded boards ([`folded_inputs`]): men first,
/// then kings.
const ROWS: usize = 128;

#[repr(C, align(64))]
pub struct Net {
    /// By folded bit, not by input: the inputs of a position are two words' bits (see
    /// [`folded_inputs`]), so the sum runs two loops, not four, and mispredicts fewer exits.
    w1: [[i16; H1]; ROWS],
    b1: [i16; H1],
    /// `[j / 4][k][j % 4]`: four inputs' weights side by side for each second-layer unit.
    w2: [[[i8; 4]; H2]; H1 / 4],
    b2: [i32; H2],
    w3: [i32; H2],
    b3: i32,
}

static ENGLISH_BYTES: &[u8] = include_bytes!("english-net.bin");
static RUSSIAN_BYTES: &[u8] = include_bytes!("russian-net.bin");

fn parse(bytes: &[u8]) -> Box<Net> {
    let u = |i: usize| u32::from_le_bytes(bytes[i * 4..i * 4 + 4].try_into().unwrap()) as usize;
    assert_eq!((u(0), u(1)), (H1, H2), "network shape");
    let f = |i: usize| f32::from_le_bytes(bytes[(i + 2) * 4..(i + 2) * 4 + 4].try_into().unwrap());
    let mut net = Box::new(Net {
        w1: [[0; H1]; ROWS],
        b1: [0; H1],
        w2: [[[0; 4]; H2]; H1 / 4],
        b2: [0; H2],
        w3: [0; H2],
        b3: 0,
    });
    let mut at = 0;
    let mut next = || {
        at += 1;
        f(at - 1)
    };
    for i in 0..INPUTS {
        let row = folded_row(i);
        for j in 0..H1 {
            let weight = first_layer_weight(next());
            if let Some(row) = row {
                net.w1[row][j] = weight;
            }
        }
    }
    for j in 0..H1 {
        net.b1[j] = (next() * Q1).round() as i16;
    }
    for j in 0..H1 {
        for k in 0..H2 {
            net.w2[j / 4][k][j % 4] = (next() * Q2).round().clamp(-127.0, 127.0) as i8;
        }
    }
    for k in 0..H2 {
        net.b2[k] = (next() * Q1 * Q2).round() as i32;
    }
    for k in 0..H2 {
        net.w3[k] = (next() * Q3).round() as i32;
    }
    net.b3 = (next() * Q1 * Q3).round() as i32;
    net
}

/// A first-layer weight in fixed point.
fn first_layer_weight(f: f32) -> i16 {
    (f * Q1).round().clamp(-32767.0, 32767.0) as i16
}

/// The variant's network, parsed on first use.
pub fn net(variant: Variant) -> &'static Net {
    static ENGLISH: OnceLock<Box<Net>> = OnceLock::new();
    static RUSSIAN: OnceLock<Box<Net>> = OnceLock::new();
    match variant {
        Variant::English => ENGLISH.get_or_init(|| parse(ENGLISH_BYTES)),
        Variant::Russian => RUSSIAN.get_or_init(|| parse(RUSSIAN_BYTES)),
    }
}

/// The network's inputs, four boards (64-bit, as the rules library's square sets) seen from
/// the side to move, the board turned for Black: its men, its kings, the opponent's men, the
/// opponent's kings. Input `64 * board + square` is on when the square's bit is set. The
/// trainer (`checkers-fit-net`) reads positions through this too.
#[cfg(any(test, feature = "tune"))]
#[inline(always)]
pub fn network_inputs(p: &Position) -> [u64; 4] {
    let w = p.pieces(Color::White).bits();
    let b = p.pieces(Color::Black).bits();
    let k = p.kings().bits();
    let (own, opp, kk) = if p.turn() == Color::White {
        (w, b, k)
    } else {
        (b.reverse_bits(), w.reverse_bits(), k.reverse_bits())
    };
    [own & !kk, own & kk, opp & !kk, opp & kk]
}

/// The pairs of bits (2i, 2i + 1) of a board's dark squares, one bit a pair: each pair holds
/// exactly one dark square of the 8x8 layout, so this loses nothing.
#[inline(always)]
fn fold(bits: u64) -> u64 {
    (bits | bits >> 1) & 0x5555_5555_5555_5555
}

/// The network's inputs as two words, men and kings, each with the side to move's pieces on
/// the even bits and the opponent's on the odd ones, the board turned for Black (turning the
/// board reverses the folded word: the turned board's pair i is pair 31 - i, and its side to
/// move's pieces land on the even bits).
#[inline(always)]
fn folded_inputs(p: &Position) -> [u64; 2] {
    let w = p.pieces(Color::White).bits();
    let b = p.pieces(Color::Black).bits();
    let k = p.kings().bits();
    let men = fold(w & !k) | fold(b & !k) << 1;
    let kings = fold(w & k) | fold(b & k) << 1;
    if p.turn() == Color::White {
        [men, kings]
    } else {
        [men.reverse_bits(), kings.reverse_bits()]
    }
}

/// The row of [`Net::w1`] of network input `64 * plane + square` (see [`network_inputs`]),
/// `None` for the light squares, which no piece stands on.
fn folded_row(input: usize) -> Option<usize> {
    let (plane, square) = (input / 64, input % 64);
    if (SquareSet::ALL.bits() >> square) & 1 == 0 {
        return None;
    }
    let pair = square / 2;
    let opponent = usize::from(plane >= 2);
    let king = plane % 2;
    Some(64 * king + 2 * pair + opponent)
}

impl Net {
    /// Centi-men for the side to move.
    #[inline]
    pub fn evaluate(&self, p: &Position) -> i32 {
        let planes = folded_inputs(p);
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512vnni")
                && std::arch::is_x86_feature_detected!("avx512bw")
            {
                // SAFETY: the CPU has these features, checked just above.
                return unsafe { self.forward_vnni(&planes) };
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: as above.
                return unsafe { self.forward_avx2(&planes) };
            }
        }
        self.forward_scalar(&planes)
    }

    #[inline(always)]
    fn first_layer(&self, planes: &[u64; 2]) -> [u8; H1] {
        let mut acc = self.b1;
        for (plane, &bits) in planes.iter().enumerate() {
            let mut x = bits;
            while x != 0 {
                let row = &self.w1[plane * 64 + x.trailing_zeros() as usize];
                for j in 0..H1 {
                    acc[j] = acc[j].wrapping_add(row[j]);
                }
                x &= x - 1;
            }
        }
        let mut a = [0u8; H1];
        for j in 0..H1 {
            a[j] = acc[j].clamp(0, Q1 as i16) as u8;
        }
        a
    }

    #[inline(always)]
    fn output(&self, sums: &[i32; H2]) -> i32 {
        let mut out = self.b3;
        for ((&sum, &bias), &weight) in sums.iter().zip(&self.b2).zip(&self.w3) {
            out += ((sum + bias) >> 6).clamp(0, Q1 as i32) * weight;
        }
        // Men to hundredths of a man.
        (out as i64 * 100 / (Q1 * Q3) as i64) as i32
    }

    fn forward_scalar(&self, planes: &[u64; 2]) -> i32 {
        self.after_first_layer(&self.first_layer(planes))
    }

    fn after_first_layer(&self, a: &[u8; H1]) -> i32 {
        let mut sums = [0i32; H2];
        for (quad, weights) in self.w2.iter().enumerate() {
            for (sum, w) in sums.iter_mut().zip(weights) {
                for i in 0..4 {
                    *sum += i32::from(a[4 * quad + i]) * i32::from(w[i]);
                }
            }
        }
        self.output(&sums)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn forward_avx2(&self, planes: &[u64; 2]) -> i32 {
        use std::arch::x86_64::*;
        let a = self.first_layer(planes);
        // Many clipped activations are zero: only the groups of four with a nonzero one are
        // summed, found from a bit mask rather than tested one by one (callgrind: 7% fewer
        // instructions here).
        let zero = _mm256_setzero_si256();
        let mut live = 0u64;
        for chunk in 0..H1 / 32 {
            let bytes = _mm256_loadu_si256(a.as_ptr().add(32 * chunk) as *const __m256i);
            let zero_groups = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(bytes, zero)));
            live |= u64::from(!zero_groups as u32 & 0xff) << (8 * chunk);
        }
        let ones = _mm256_set1_epi16(1);
        let mut acc = [_mm256_setzero_si256(); H2 / 8];
        while live != 0 {
            let quad = live.trailing_zeros() as usize;
            live &= live - 1;
            let four = i32::from_le_bytes([a[4 * quad], a[4 * quad + 1], a[4 * quad + 2], a[4 * quad + 3]]);
            let inputs = _mm256_set1_epi32(four);
            let w = self.w2[quad].as_ptr() as *const __m256i;
            for (b, sum) in acc.iter_mut().enumerate() {
                // u8 × i8 pairs cannot saturate: 2 × 127 × 127 < 32767.
                let pairs = _mm256_maddubs_epi16(inputs, _mm256_loadu_si256(w.add(b)));
                *sum = _mm256_add_epi32(*sum, _mm256_madd_epi16(pairs, ones));
            }
        }
        let mut sums = [0i32; H2];
        _mm256_storeu_si256(sums.as_mut_ptr() as *mut __m256i, acc[0]);
        _mm256_storeu_si256(sums.as_mut_ptr().add(8) as *mut __m256i, acc[1]);
        _mm256_storeu_si256(sums.as_mut_ptr().add(16) as *mut __m256i, acc[2]);
        _mm256_storeu_si256(sums.as_mut_ptr().add(24) as *mut __m256i, acc[3]);
        self.output(&sums)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    unsafe fn forward_vnni(&self, planes: &[u64; 2]) -> i32 {
        use std::arch::x86_64::*;
        let a = self.first_layer(planes);
        // Four independent chains for each half: the instruction's latency, not its
        // throughput, would bound a single chain.
        let mut lo = [_mm512_setzero_si512(); 4];
        let mut hi = [_mm512_setzero_si512(); 4];
        for (step, weights) in self.w2.chunks_exact(4).enumerate() {
            for (c, quad) in weights.iter().enumerate() {
                let q = 4 * step + c;
                let four = i32::from_le_bytes([a[4 * q], a[4 * q + 1], a[4 * q + 2], a[4 * q + 3]]);
                let inputs = _mm512_set1_epi32(four);
                let w = quad.as_ptr() as *const __m512i;
                lo[c] = _mm512_dpbusd_epi32(lo[c], inputs, _mm512_loadu_si512(w));
                hi[c] = _mm512_dpbusd_epi32(hi[c], inputs, _mm512_loadu_si512(w.add(1)));
            }
        }
        let lo = _mm512_add_epi32(_mm512_add_epi32(lo[0], lo[1]), _mm512_add_epi32(lo[2], lo[3]));
        let hi = _mm512_add_epi32(_mm512_add_epi32(hi[0], hi[1]), _mm512_add_epi32(hi[2], hi[3]));
        let mut sums = [0i32; H2];
        _mm512_storeu_si512(sums.as_mut_ptr() as *mut __m512i, lo);
        _mm512_storeu_si512(sums.as_mut_ptr().add(16) as *mut __m512i, hi);
        self.output(&sums)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first layer summed the plain way: one row an input of [`network_inputs`], rows
    /// read straight from the file.
    fn plain_first_layer(bytes: &[u8], net: &Net, p: &Position) -> [u8; H1] {
        let weight = |input: usize, j: usize| {
            let at = (2 + input * H1 + j) * 4;
            first_layer_weight(f32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()))
        };
        let mut acc = net.b1;
        for (plane, bits) in network_inputs(p).into_iter().enumerate() {
            for square in 0..64 {
                if bits >> square & 1 == 1 {
                    for (j, sum) in acc.iter_mut().enumerate() {
                        *sum = sum.wrapping_add(weight(64 * plane + square, j));
                    }
                }
            }
        }
        acc.map(|sum| sum.clamp(0, Q1 as i16) as u8)
    }

    #[test]
    fn the_folded_inputs_give_the_plain_sums() {
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for (variant, bytes) in [(Variant::English, ENGLISH_BYTES), (Variant::Russian, RUSSIAN_BYTES)] {
            let net = net(variant);
            for _ in 0..40 {
                let mut p = Position::start(variant);
                for _ in 0..120 {
                    let plain = net.after_first_layer(&plain_first_layer(bytes, net, &p));
                    assert_eq!(net.evaluate(&p), plain, "{p:?}");
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    p = p.play_unchecked(&moves[(x % moves.len() as u64) as usize]);
                }
            }
        }
    }

    #[test]
    fn every_instruction_set_gives_the_same_score() {
        let mut x: u64 = 0x1234_5678_9abc_def1;
        for net in [net(Variant::English), net(Variant::Russian)] {
            for _ in 0..2000 {
                let mut planes = [0u64; 2];
                for _ in 0..20 {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    planes[(x >> 32) as usize % 2] |= 1 << (x % 64);
                }
                let scalar = net.forward_scalar(&planes);
                #[cfg(target_arch = "x86_64")]
                unsafe {
                    if std::arch::is_x86_feature_detected!("avx2") {
                        assert_eq!(net.forward_avx2(&planes), scalar);
                    }
                    if std::arch::is_x86_feature_detected!("avx512vnni")
                        && std::arch::is_x86_feature_detected!("avx512bw")
                    {
                        assert_eq!(net.forward_vnni(&planes), scalar);
                    }
                }
            }
        }
    }
}
