pub mod analyse;
pub mod bench;
pub mod hub;
pub mod match_cmd;
pub mod moves;
pub mod perft;
pub mod play;
pub mod serve;
