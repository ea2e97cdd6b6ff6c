pub mod analyse;
pub mod bench;
pub mod moves;
pub mod perft;
pub mod hub;
pub mod play;
pub mod match_cmd;
