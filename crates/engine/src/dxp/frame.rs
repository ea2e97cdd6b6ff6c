//! DXP over a byte stream (the specification's SOCKET layer): each message is sent followed
//! by a NUL, and the receiver splits what arrives at the NULs.

use super::error::MessageError;
use super::message::{Message, MAX_MESSAGE_LEN};

/// A message as sent on a stream: its text and the NUL that ends it.
pub fn frame(message: &Message) -> Vec<u8> {
    let mut bytes = message.to_wire().into_bytes();
    bytes.push(0);
    bytes
}

/// Splits the bytes of a stream, as they arrive in pieces of any size, into messages. A run
/// of more than 127 bytes without a NUL is refused whole, once its NUL comes, and costs
/// nothing but itself: what follows is read as usual. Memory stays bounded whatever arrives.
#[derive(Clone, Debug, Default)]
pub struct FrameReader {
    pending: Vec<u8>,
    /// Bytes of the current message beyond what is kept (it is too long and will be refused).
    dropped: usize,
}

impl FrameReader {
    pub fn new() -> FrameReader {
        FrameReader::default()
    }

    /// Takes the next bytes of the stream; gives each message they complete, in order: its
    /// bytes without the NUL, or [`MessageError::TooLong`] for one past 127 bytes.
    pub fn push(&mut self, bytes: &[u8]) -> Vec<Result<Vec<u8>, MessageError>> {
        let mut out = Vec::new();
        for &byte in bytes {
            if byte == 0 {
                if self.dropped > 0 {
                    out.push(Err(MessageError::TooLong(self.pending.len() + self.dropped)));
                } else {
                    out.push(Ok(std::mem::take(&mut self.pending)));
                }
                self.pending.clear();
                self.dropped = 0;
            } else if self.pending.len() < MAX_MESSAGE_LEN + 1 && self.dropped == 0 {
                self.pending.push(byte);
            } else {
                self.dropped = self.dropped.saturating_add(1);
            }
        }
        out
    }

    /// Whether part of a message has arrived (the stream ending now would cut it).
    pub fn is_mid_message(&self) -> bool {
        !self.pending.is_empty() || self.dropped > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_split_at_nuls_whatever_the_pieces() {
        let stream = b"E00\0M0012061100\0\0CHi\0";
        for size in 1..stream.len() {
            let mut reader = FrameReader::new();
            let got: Vec<_> = stream.chunks(size).flat_map(|piece| reader.push(piece)).collect();
            assert_eq!(
                got,
                vec![Ok(b"E00".to_vec()), Ok(b"M0012061100".to_vec()), Ok(Vec::new()), Ok(b"CHi".to_vec())]
            );
            assert!(!reader.is_mid_message());
        }
    }

    #[test]
    fn an_overlong_run_is_refused_alone() {
        let mut reader = FrameReader::new();
        let mut stream = vec![b'C'; 127];
        stream.push(0);
        stream.extend(vec![b'C'; 500]);
        stream.push(0);
        stream.extend(b"E01\0");
        let got = reader.push(&stream);
        assert_eq!(got.len(), 3);
        assert_eq!(got[0].as_ref().map(Vec::len), Ok(127));
        assert_eq!(got[1], Err(MessageError::TooLong(500)));
        assert_eq!(got[2], Ok(b"E01".to_vec()));
        assert_eq!(frame(&Message::parse(b"E01").unwrap()), b"E01\0");
    }
}
