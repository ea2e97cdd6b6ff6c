//! The weights of the board variants' evaluation ([`BoardWeights`], terms in `boards.rs`):
//! hand-set from what each game's players know (a flying king is worth about three men on
//! 10x10, two and a half on 8x8; a short Italian king less), until `checkers-tune fit-board`
//! fits a variant's and writes its constant here: every variant but Italian, whose fit did
//! not predict its held-out games better than the hand-set weights (International, Brazilian
//! and Frisian on 800 self-play games at 20,000 nodes a move, the others on 400 at 10,000;
//! docs/engine.md says how, docs/benchmarks.md what the fits won). The values
//! are by `term` index: the man, the king, men on rows 0-11 on a full board, on an empty one,
//! men on files 0-5 from the edge, lopsided men, kings on the long diagonal, trading down.

use super::boards::BoardWeights;

/// Fitted by `checkers-tune fit-board international 2000` on 86385 samples (held-out loss 0.015443, was 0.018901).
pub const INTERNATIONAL: BoardWeights = BoardWeights {
    values: [
        100, 235, 155, 166, 162, 155, 156, 138, 116, 273, 607, 18, 20, 22, 0, -34, -46, -42, -40, -30, -22,
        -24, -6, 54, 60, 66, 0, -4, 3, 2, 11, 15, -10, 11, 10,
    ],
    drawish_king_endings: true,
};
/// Fitted by `checkers-tune fit-board brazilian 2000` on 44278 samples (held-out loss 0.017730, was 0.019965).
pub const BRAZILIAN: BoardWeights = BoardWeights {
    values: [
        100, 213, 114, 116, 103, 130, 152, 200, 168, 14, 16, 18, 20, 22, 0, -42, -39, -41, -54, -42, 35, 42,
        48, 54, 60, 66, 0, 7, 17, 19, 12, 15, -10, 19, 6,
    ],
    drawish_king_endings: true,
};
/// Fitted by `checkers-tune fit-board canadian 2000` on 68683 samples (held-out loss 0.027242, was 0.028807).
pub const CANADIAN: BoardWeights = BoardWeights {
    values: [
        100, 418, 136, 117, 100, 107, 104, 107, 129, 55, 27, 291, 598, 22, 0, 44, 52, 35, 39, 29, 29, 84, 64,
        39, 146, 55, 0, -6, -12, -33, -41, -44, -7, 16, 0,
    ],
    drawish_king_endings: true,
};
/// Fitted by `checkers-tune fit-board frisian 2000` on 53246 samples (held-out loss 0.030960, was 0.034834).
pub const FRISIAN: BoardWeights = BoardWeights {
    values: [
        100, 340, 47, 46, 39, 34, 24, 22, 7, -10, -61, 18, 20, 22, 0, -13, -27, -19, -4, 11, 28, 100, 240,
        54, 60, 66, 0, -2, -2, -6, -7, 15, -6, 38, 10,
    ],
    drawish_king_endings: true,
};
/// Fitted by `checkers-tune fit-board frysk 2000` on 18106 samples (held-out loss 0.036019, was 0.044654).
pub const FRYSK: BoardWeights = BoardWeights {
    values: [
        100, 508, 93, 94, 93, 100, 111, 166, 266, 431, 546, 18, 20, 22, 0, -9, -50, -37, -22, -33, -48, -48,
        12, 54, 60, 66, 0, 16, 17, 3, -3, 15, -6, 12, -79,
    ],
    drawish_king_endings: true,
};
/// Fitted by `checkers-tune fit-board antidraughts 2000` on 33616 samples (held-out loss 0.069723, was 0.077477).
pub const ANTIDRAUGHTS: BoardWeights = BoardWeights {
    values: [
        -100, 372, -159, -53, -83, 7, 81, -114, -132, -431, 1203, 0, 0, 0, 0, -112, -79, -79, -106, 6, -102,
        -161, -409, 0, 0, 0, 0, 9, 24, 67, 85, 0, -25, 14, 44,
    ],
    drawish_king_endings: false,
};
/// Fitted by `checkers-tune fit-board breakthrough 2000` on 29473 samples (held-out loss 0.054102, was 0.060747).
pub const BREAKTHROUGH: BoardWeights = BoardWeights {
    values: [
        100, 1375, -3, 16, 24, 33, 32, 67, 25, -285, 170, 54, 60, 66, 0, -48, -55, -65, -42, -61, 92, 302,
        911, 135, 150, 165, 0, 2, 7, 10, 6, 10, -9, 260, 21,
    ],
    drawish_king_endings: false,
};
pub const ITALIAN: BoardWeights = BoardWeights::hand_set(100, 170, 2, 6, 3, 0, false);
/// Fitted by `checkers-tune fit-board spanish 2000` on 30475 samples (held-out loss 0.018510, was 0.021163).
pub const SPANISH: BoardWeights = BoardWeights {
    values: [
        100, 322, 208, 155, 98, 117, 148, 156, 358, 14, 16, 18, 20, 22, 0, -46, 0, 13, 14, 23, -14, 42, 48,
        54, 60, 66, 0, 0, 23, 34, 12, 15, -22, 9, -21,
    ],
    drawish_king_endings: true,
};
/// Portuguese plays Spanish's moves and draws: its self-play games are Spanish's own.
pub const PORTUGUESE: BoardWeights = SPANISH;
/// Fitted by `checkers-tune fit-board czech 2000` on 43680 samples (held-out loss 0.010949, was 0.012484).
pub const CZECH: BoardWeights = BoardWeights {
    values: [
        100, 313, 327, 273, 186, 249, 413, 215, 705, 14, 16, 18, 20, 22, 0, -32, -16, 7, -46, -119, -173, 42,
        48, 54, 60, 66, 0, 23, 46, 48, 12, 15, -49, 16, 4,
    ],
    drawish_king_endings: true,
};
/// Fitted by `checkers-tune fit-board pool 2000` on 30463 samples (held-out loss 0.027858, was 0.036738).
pub const POOL: BoardWeights = BoardWeights {
    values: [
        100, 160, 338, 311, 317, 331, 375, 648, 1206, 14, 16, 18, 20, 22, 0, -44, -72, -69, -109, -207, -264,
        42, 48, 54, 60, 66, 0, 22, 46, 40, 12, 15, -38, 47, 45,
    ],
    drawish_king_endings: true,
};
/// Fitted by `checkers-tune fit-board thai 2000` on 24308 samples (held-out loss 0.040189, was 0.044884).
pub const THAI: BoardWeights = BoardWeights {
    values: [
        100, 189, -29, -39, -44, -44, -39, -46, 17, 14, 16, 18, 20, 22, 0, -26, -17, 2, 16, 59, 89, 42, 48,
        54, 60, 66, 0, 4, 11, 15, 12, 15, -5, 2, 16,
    ],
    drawish_king_endings: true,
};
/// Fitted by `checkers-tune fit-board turkish 2000` on 33810 samples (held-out loss 0.020133, was 0.023072).
pub const TURKISH: BoardWeights = BoardWeights {
    values: [
        100, 354, 0, -9, -6, 1, 19, 7, 184, 14, 16, 18, 20, 22, 0, 17, 18, 11, 27, 106, 164, 42, 48, 54, 60,
        66, 0, -11, -10, -13, 8, 10, 10, 26, 4,
    ],
    drawish_king_endings: false,
};
