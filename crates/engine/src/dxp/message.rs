//! The DXP messages, one Rust type each, read from and written to their fixed-width ASCII
//! form (the layout of the DamExchange specification, quoted field by field on each type).
//!
//! Reading checks everything a field can be checked for on its own: the type letter, each
//! field's width, digits where numbers go, the letters a code or colour may be, and that
//! nothing follows the last field. What needs the game (is a square on the board, is the
//! move legal, does the position fit the variant) is the [`Session`](super::Session)'s to
//! judge. Writing never fails: the text types below hold only what the protocol can carry.

use std::fmt;

use checkers_rules::{Color, Piece, Role};

use super::error::MessageError;

/// The longest message: 127 characters, without the NUL that ends it on the wire.
pub const MAX_MESSAGE_LEN: usize = 127;
/// The protocol version this implementation speaks (`01` in a GAMEREQ).
pub const PROTOCOL_VERSION: u8 = 1;
/// The TCP port DXP programs customarily listen on.
pub const DEFAULT_PORT: u16 = 27531;
/// The width of a program's name in GAMEREQ and GAMEACC.
pub const NAME_LEN: usize = 32;
/// The longest CHAT text (the message less its type letter).
pub const MAX_CHAT_LEN: usize = MAX_MESSAGE_LEN - 1;
/// Bytes of a GAMEREQ before its position: type, version, name, colour, time, moves, flag.
const GAMEREQ_HEAD: usize = 1 + 2 + NAME_LEN + 1 + 3 + 3 + 1;
/// The most squares a GAMEREQ's position can name (the rest of a full-length message after
/// the colour to move).
pub const MAX_POSITION_SQUARES: usize = MAX_MESSAGE_LEN - GAMEREQ_HEAD - 1;
/// Bytes of a MOVE before its captured squares.
const MOVE_HEAD: usize = 1 + 4 + 2 + 2 + 2;
/// The most captured squares a MOVE can list in 127 characters.
pub const MAX_CAPTURED: usize = (MAX_MESSAGE_LEN - MOVE_HEAD) / 2;

/// One DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `R`: the initiator asks for a game.
    GameRequest(GameRequest),
    /// `A`: the follower's answer to a GAMEREQ.
    GameAccept(GameAccept),
    /// `M`: a move.
    Move(MoveMessage),
    /// `E`: the end of a game, asked for or acknowledged.
    GameEnd(GameEnd),
    /// `C`: free text, at any time.
    Chat(Text),
    /// `B`: a request to go back to an earlier move.
    BackRequest(BackRequest),
    /// `K`: the answer to a BACKREQ.
    BackAccept(BackAnswer),
}

/// Printable text of at most a given length: a program's name (32) or a CHAT's text (126).
/// Built with [`Text::name`] or [`Text::chat`], which make any string fit: characters the
/// protocol cannot carry (NUL, non-ASCII) become `?`, control characters spaces, and the
/// text is cut at the field's width.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Text(String);

impl Text {
    /// A program name: printable ASCII, at most 32 characters, without leading or trailing
    /// blanks (the field is padded with blanks on the wire).
    pub fn name(text: &str) -> Text {
        Text(sanitize(text, NAME_LEN).trim().to_string())
    }

    /// A CHAT text: ASCII, at most 126 characters.
    pub fn chat(text: &str) -> Text {
        Text(sanitize(text, MAX_CHAT_LEN))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn sanitize(text: &str, width: usize) -> String {
    text.chars()
        .map(|c| match c {
            '\0' => '?',
            c if c.is_ascii_control() => ' ',
            c if c.is_ascii() => c,
            _ => '?',
        })
        .take(width)
        .collect()
}

/// GAMEREQ: `R`, version (2 digits), initiator's name (32), the follower's colour (`W` or
/// `Z`), thinking time in minutes for each side for the whole game (3 digits), the number of
/// moves of the game (3 digits, `000` for no limit), then `A` for the variant's start
/// position or `B`, the colour to move and one letter per square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRequest {
    /// 0-99; this implementation speaks [`PROTOCOL_VERSION`].
    pub version: u8,
    pub initiator: Text,
    pub follower_color: Color,
    /// 0-999.
    pub minutes: u16,
    /// 0-999; 0 is no limit.
    pub moves: u16,
    /// `None` for `A` (the start position); at most [`MAX_POSITION_SQUARES`] squares.
    pub position: Option<DxpPosition>,
}

/// A GAMEREQ's position: the side to move and each square's piece, square 1 first (`e`
/// empty, `w` and `z` White's and Black's men, `W` and `Z` their kings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DxpPosition {
    pub to_move: Color,
    pub squares: Vec<Option<Piece>>,
}

/// GAMEACC: `A`, the follower's name (32), the acceptance code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameAccept {
    pub follower: Text,
    pub code: AcceptCode,
}

/// The follower's answer to a GAMEREQ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AcceptCode {
    /// `0`: the game starts.
    Accepted,
    /// `1`: the protocol version is not the follower's.
    WrongVersion,
    /// `2`: not this game (time, position, ...), but another one may be asked for.
    Declined,
    /// `3`: no game at all.
    NoGames,
}

/// MOVE: `M`, seconds the move took (4 digits), from and to (2 digits each), the number of
/// pieces captured (2 digits), then each captured square (2 digits each, in any order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveMessage {
    /// 0-9999.
    pub seconds: u16,
    /// Squares 0-99 (the board's are 1-50).
    pub from: u8,
    pub to: u8,
    /// At most [`MAX_CAPTURED`].
    pub captured: Vec<u8>,
}

/// GAMEEND: `E`, the reason, the stop code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameEnd {
    pub reason: EndReason,
    /// Whether the sender wants no further game (`1`) rather than being willing to play
    /// another (`0`).
    pub stop: bool,
}

/// Why the sender ends the game (informative only, by the specification).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// `0`: no reason given (always allowed; an acknowledgement gives this).
    Unspecified,
    /// `1`: the sender gives up.
    GiveUp,
    /// `2`: a draw.
    Draw,
    /// `3`: the sender wins.
    Win,
}

/// BACKREQ: `B`, the move number to go back to (3 digits, the game's first move is 1) and the
/// colour to move then.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BackRequest {
    /// 0-999.
    pub move_number: u16,
    pub to_move: Color,
}

/// BACKACC: `K` and the answer to a BACKREQ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackAnswer {
    /// `0`: gone back.
    Accepted,
    /// `1`: going back is not supported.
    NotSupported,
    /// `2`: not going back; the game goes on.
    Continue,
}

impl Message {
    /// Reads one message (the bytes between two NULs).
    pub fn parse(bytes: &[u8]) -> Result<Message, MessageError> {
        if bytes.is_empty() {
            return Err(MessageError::Empty);
        }
        if bytes.len() > MAX_MESSAGE_LEN {
            return Err(MessageError::TooLong(bytes.len()));
        }
        if let Some(at) = bytes.iter().position(|&b| b == 0 || !b.is_ascii()) {
            return Err(MessageError::NotAscii { at: at + 1, byte: bytes[at] });
        }
        // ASCII throughout, so every index below is a character boundary.
        let text =
            std::str::from_utf8(bytes).map_err(|_| MessageError::NotAscii { at: 1, byte: bytes[0] })?;
        let mut fields = Fields { text, at: 1 };
        let message = match bytes[0] {
            b'R' => Message::GameRequest(fields.game_request()?),
            b'A' => Message::GameAccept(GameAccept {
                follower: Text::name(fields.take(NAME_LEN, "GAMEACC", "the follower's name")?),
                code: match fields.letter("GAMEACC", "acceptance code", "0123")? {
                    '0' => AcceptCode::Accepted,
                    '1' => AcceptCode::WrongVersion,
                    '2' => AcceptCode::Declined,
                    _ => AcceptCode::NoGames,
                },
            }),
            b'M' => Message::Move(fields.move_message()?),
            b'E' => Message::GameEnd(GameEnd {
                reason: match fields.letter("GAMEEND", "reason", "0123")? {
                    '0' => EndReason::Unspecified,
                    '1' => EndReason::GiveUp,
                    '2' => EndReason::Draw,
                    _ => EndReason::Win,
                },
                stop: fields.letter("GAMEEND", "stop code", "01")? == '1',
            }),
            b'C' => {
                let rest = &text[1..];
                fields.at = text.len();
                Message::Chat(Text::chat(rest))
            }
            b'B' => Message::BackRequest(BackRequest {
                move_number: fields.number(3, "BACKREQ", "move number")?,
                to_move: fields.color("BACKREQ", "colour to move")?,
            }),
            b'K' => Message::BackAccept(match fields.letter("BACKACC", "acceptance code", "012")? {
                '0' => BackAnswer::Accepted,
                '1' => BackAnswer::NotSupported,
                _ => BackAnswer::Continue,
            }),
            other => return Err(MessageError::UnknownType(char::from(other))),
        };
        fields.end(message.kind())?;
        Ok(message)
    }

    /// The message's name in the specification (`GAMEREQ`, `MOVE`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Message::GameRequest(_) => "GAMEREQ",
            Message::GameAccept(_) => "GAMEACC",
            Message::Move(_) => "MOVE",
            Message::GameEnd(_) => "GAMEEND",
            Message::Chat(_) => "CHAT",
            Message::BackRequest(_) => "BACKREQ",
            Message::BackAccept(_) => "BACKACC",
        }
    }

    /// The message as sent (without the NUL that ends it on the wire): ASCII, 1 to 127
    /// characters. A number past its field's width is written as the largest the field holds,
    /// and a position or capture list past what fits is cut (values [`Message::parse`] never
    /// gives).
    pub fn to_wire(&self) -> String {
        let mut out = String::with_capacity(MAX_MESSAGE_LEN);
        match self {
            Message::GameRequest(r) => {
                out.push('R');
                push_number(&mut out, r.version.into(), 2);
                push_padded(&mut out, r.initiator.as_str(), NAME_LEN);
                out.push(color_letter(r.follower_color));
                push_number(&mut out, r.minutes.into(), 3);
                push_number(&mut out, r.moves.into(), 3);
                match &r.position {
                    None => out.push('A'),
                    Some(position) => {
                        out.push('B');
                        out.push(color_letter(position.to_move));
                        out.extend(
                            position.squares.iter().take(MAX_POSITION_SQUARES).map(|&p| piece_letter(p)),
                        );
                    }
                }
            }
            Message::GameAccept(a) => {
                out.push('A');
                push_padded(&mut out, a.follower.as_str(), NAME_LEN);
                out.push(match a.code {
                    AcceptCode::Accepted => '0',
                    AcceptCode::WrongVersion => '1',
                    AcceptCode::Declined => '2',
                    AcceptCode::NoGames => '3',
                });
            }
            Message::Move(m) => {
                out.push('M');
                push_number(&mut out, m.seconds.into(), 4);
                push_number(&mut out, m.from.into(), 2);
                push_number(&mut out, m.to.into(), 2);
                let captured = &m.captured[..m.captured.len().min(MAX_CAPTURED)];
                push_number(&mut out, captured.len() as u32, 2);
                for &square in captured {
                    push_number(&mut out, square.into(), 2);
                }
            }
            Message::GameEnd(e) => {
                out.push('E');
                out.push(match e.reason {
                    EndReason::Unspecified => '0',
                    EndReason::GiveUp => '1',
                    EndReason::Draw => '2',
                    EndReason::Win => '3',
                });
                out.push(if e.stop { '1' } else { '0' });
            }
            Message::Chat(text) => {
                out.push('C');
                out.push_str(text.as_str());
            }
            Message::BackRequest(b) => {
                out.push('B');
                push_number(&mut out, b.move_number.into(), 3);
                out.push(color_letter(b.to_move));
            }
            Message::BackAccept(answer) => {
                out.push('K');
                out.push(match answer {
                    BackAnswer::Accepted => '0',
                    BackAnswer::NotSupported => '1',
                    BackAnswer::Continue => '2',
                });
            }
        }
        out
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_wire())
    }
}

impl fmt::Display for AcceptCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AcceptCode::Accepted => "0 (accepted)",
            AcceptCode::WrongVersion => "1 (not this protocol version)",
            AcceptCode::Declined => "2 (not this game, another may be asked for)",
            AcceptCode::NoGames => "3 (no game at all)",
        })
    }
}

/// `W` for White, `Z` (zwart) for Black.
pub fn color_letter(color: Color) -> char {
    match color {
        Color::White => 'W',
        Color::Black => 'Z',
    }
}

/// A square of a GAMEREQ's position as its letter.
pub fn piece_letter(piece: Option<Piece>) -> char {
    match piece {
        None => 'e',
        Some(Piece { color: Color::White, role: Role::Man }) => 'w',
        Some(Piece { color: Color::Black, role: Role::Man }) => 'z',
        Some(Piece { color: Color::White, role: Role::King }) => 'W',
        Some(Piece { color: Color::Black, role: Role::King }) => 'Z',
    }
}

fn push_number(out: &mut String, value: u32, width: usize) {
    let largest = 10u32.pow(width as u32) - 1;
    out.push_str(&format!("{:0width$}", value.min(largest)));
}

fn push_padded(out: &mut String, text: &str, width: usize) {
    out.push_str(&format!("{:<width$}", &text[..text.len().min(width)]));
}

/// The fields of a message being read, left to right.
struct Fields<'a> {
    text: &'a str,
    /// Byte index of the next field (the type letter, at 0, is read already).
    at: usize,
}

impl<'a> Fields<'a> {
    fn take(
        &mut self,
        width: usize,
        kind: &'static str,
        field: &'static str,
    ) -> Result<&'a str, MessageError> {
        let rest = &self.text[self.at..];
        if rest.len() < width {
            return Err(MessageError::Short { kind, field, length: self.text.len() });
        }
        self.at += width;
        Ok(&rest[..width])
    }

    fn number<T: TryFrom<u32>>(
        &mut self,
        width: usize,
        kind: &'static str,
        field: &'static str,
    ) -> Result<T, MessageError> {
        let text = self.take(width, kind, field)?;
        if !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(MessageError::NotDigits { kind, field, text: text.to_string() });
        }
        // At most 4 digits: always a u32, and the callers' types hold their widths.
        let value: u32 =
            text.parse().map_err(|_| MessageError::NotDigits { kind, field, text: text.to_string() })?;
        T::try_from(value).map_err(|_| MessageError::NotDigits { kind, field, text: text.to_string() })
    }

    fn letter(
        &mut self,
        kind: &'static str,
        field: &'static str,
        allowed: &'static str,
    ) -> Result<char, MessageError> {
        let c = self.take(1, kind, field)?.chars().next().unwrap_or('\0');
        if allowed.contains(c) {
            Ok(c)
        } else {
            Err(MessageError::BadLetter { kind, field, found: c, allowed })
        }
    }

    fn color(&mut self, kind: &'static str, field: &'static str) -> Result<Color, MessageError> {
        Ok(if self.letter(kind, field, "WZ")? == 'W' { Color::White } else { Color::Black })
    }

    fn end(&self, kind: &'static str) -> Result<(), MessageError> {
        if self.at < self.text.len() {
            return Err(MessageError::Trailing { kind, length: self.text.len(), expected: self.at });
        }
        Ok(())
    }

    fn game_request(&mut self) -> Result<GameRequest, MessageError> {
        const K: &str = "GAMEREQ";
        let version = self.number(2, K, "version")?;
        let initiator = Text::name(self.take(NAME_LEN, K, "the initiator's name")?);
        let follower_color = self.color(K, "follower's colour")?;
        let minutes = self.number(3, K, "thinking time")?;
        let moves = self.number(3, K, "number of moves")?;
        let position = match self.letter(K, "starting position", "AB")? {
            'A' => None,
            _ => {
                let to_move = self.color(K, "colour to move")?;
                let letters = &self.text[self.at..];
                if letters.is_empty() {
                    return Err(MessageError::Short { kind: K, field: "position", length: self.text.len() });
                }
                let mut squares = Vec::with_capacity(letters.len());
                for (i, c) in letters.chars().enumerate() {
                    squares.push(match c {
                        'e' => None,
                        'w' => Some(Piece { color: Color::White, role: Role::Man }),
                        'z' => Some(Piece { color: Color::Black, role: Role::Man }),
                        'W' => Some(Piece { color: Color::White, role: Role::King }),
                        'Z' => Some(Piece { color: Color::Black, role: Role::King }),
                        found => return Err(MessageError::BadSquare { square: i + 1, found }),
                    });
                }
                self.at = self.text.len();
                Some(DxpPosition { to_move, squares })
            }
        };
        Ok(GameRequest { version, initiator, follower_color, minutes, moves, position })
    }

    fn move_message(&mut self) -> Result<MoveMessage, MessageError> {
        const K: &str = "MOVE";
        let seconds = self.number(4, K, "time")?;
        let from = self.number(2, K, "from field")?;
        let to = self.number(2, K, "to field")?;
        let count: usize = self.number::<u8>(2, K, "number captured")?.into();
        if self.text.len() - self.at != 2 * count {
            return Err(MessageError::CapturedCount {
                count,
                length: self.text.len(),
                expected: self.at + 2 * count,
            });
        }
        let mut captured = Vec::with_capacity(count);
        for _ in 0..count {
            captured.push(self.number(2, K, "captured piece")?);
        }
        Ok(MoveMessage { seconds, from, to, captured })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Message, MessageError> {
        Message::parse(text.as_bytes())
    }

    /// The specification's own examples read as it describes them and are written back the same.
    #[test]
    fn the_specification_examples() {
        let request = "R01Tornado voor Windows 4.0        W060065A";
        let Ok(Message::GameRequest(r)) = parse(request) else { panic!("{:?}", parse(request)) };
        assert_eq!(
            (r.version, r.initiator.as_str(), r.follower_color, r.minutes, r.moves, r.position),
            (1, "Tornado voor Windows 4.0", Color::White, 60, 65, None)
        );
        let accept = "ATornado voor Windows 4.0        0";
        assert_eq!(
            parse(accept),
            Ok(Message::GameAccept(GameAccept {
                follower: Text::name("Tornado voor Windows 4.0"),
                code: AcceptCode::Accepted
            }))
        );
        assert_eq!(
            parse("M0012061100"),
            Ok(Message::Move(MoveMessage { seconds: 12, from: 6, to: 11, captured: vec![] }))
        );
        assert_eq!(
            parse("M001205250422122320"),
            Ok(Message::Move(MoveMessage { seconds: 12, from: 5, to: 25, captured: vec![22, 12, 23, 20] }))
        );
        assert_eq!(
            parse("E00"),
            Ok(Message::GameEnd(GameEnd { reason: EndReason::Unspecified, stop: false }))
        );
        assert_eq!(
            parse("CWhat do you think about move 35?"),
            Ok(Message::Chat(Text::chat("What do you think about move 35?")))
        );
        assert_eq!(
            parse("B005Z"),
            Ok(Message::BackRequest(BackRequest { move_number: 5, to_move: Color::Black }))
        );
        assert_eq!(parse("K1"), Ok(Message::BackAccept(BackAnswer::NotSupported)));
        for text in [request, accept, "M0012061100", "M001205250422122320", "E00", "B005Z", "K1"] {
            assert_eq!(parse(text).unwrap().to_wire(), text);
        }
    }

    #[test]
    fn a_position_is_read_square_by_square() {
        let squares = "zzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
        let text = format!("R01{:<32}Z000000BW{squares}", "DXP Client");
        let Ok(Message::GameRequest(r)) = parse(&text) else { panic!("{:?}", parse(&text)) };
        let position = r.position.clone().unwrap();
        assert_eq!(
            (r.follower_color, position.to_move, position.squares.len()),
            (Color::Black, Color::White, 50)
        );
        assert_eq!(position.squares[0], Some(Piece { color: Color::Black, role: Role::Man }));
        assert_eq!(position.squares[25], None);
        assert_eq!(position.squares[49], Some(Piece { color: Color::White, role: Role::Man }));
        assert_eq!(Message::GameRequest(r).to_wire(), text);
    }

    #[test]
    fn each_fault_is_named() {
        assert_eq!(parse(""), Err(MessageError::Empty));
        assert_eq!(parse("X"), Err(MessageError::UnknownType('X')));
        assert_eq!(parse(&"C".repeat(128)), Err(MessageError::TooLong(128)));
        assert_eq!(Message::parse(b"C\xc3\xa9"), Err(MessageError::NotAscii { at: 2, byte: 0xc3 }));
        assert_eq!(
            parse("M00120611"),
            Err(MessageError::Short { kind: "MOVE", field: "number captured", length: 9 })
        );
        assert_eq!(
            parse("M001206110"),
            Err(MessageError::Short { kind: "MOVE", field: "number captured", length: 10 })
        );
        assert_eq!(
            parse("M00120611010"),
            Err(MessageError::CapturedCount { count: 1, length: 12, expected: 13 })
        );
        assert_eq!(
            parse("M0012061100 "),
            Err(MessageError::CapturedCount { count: 0, length: 12, expected: 11 })
        );
        assert_eq!(
            parse("M00x2061100"),
            Err(MessageError::NotDigits { kind: "MOVE", field: "time", text: "00x2".into() })
        );
        assert_eq!(parse("E0"), Err(MessageError::Short { kind: "GAMEEND", field: "stop code", length: 2 }));
        assert_eq!(parse("E000"), Err(MessageError::Trailing { kind: "GAMEEND", length: 4, expected: 3 }));
        assert_eq!(
            parse("E40"),
            Err(MessageError::BadLetter { kind: "GAMEEND", field: "reason", found: '4', allowed: "0123" })
        );
        assert_eq!(
            parse("B005B"),
            Err(MessageError::BadLetter {
                kind: "BACKREQ",
                field: "colour to move",
                found: 'B',
                allowed: "WZ"
            })
        );
        let bad_square = format!("R01{:32}W000000BW{}x", "x", "e".repeat(10));
        assert_eq!(parse(&bad_square), Err(MessageError::BadSquare { square: 11, found: 'x' }));
        let no_position = format!("R01{:32}W000000BW", "x");
        assert_eq!(
            parse(&no_position),
            Err(MessageError::Short { kind: "GAMEREQ", field: "position", length: 44 })
        );
        let a_and_more = format!("R01{:32}W000000AW", "x");
        assert_eq!(
            parse(&a_and_more),
            Err(MessageError::Trailing { kind: "GAMEREQ", length: 44, expected: 43 })
        );
    }

    #[test]
    fn writing_fits_the_fields() {
        let long = Message::Move(MoveMessage { seconds: 65_000, from: 200, to: 7, captured: vec![1; 80] });
        let text = long.to_wire();
        assert!(text.len() <= MAX_MESSAGE_LEN, "{text}");
        assert!(text.starts_with("M99999907"), "{text}");
        assert_eq!(Message::parse(text.as_bytes()).map(|m| m.kind()), Ok("MOVE"));
        assert_eq!(Text::name(&"é".repeat(40)).as_str(), "?".repeat(32));
        assert_eq!(Text::chat("a\u{0}b\nc").as_str(), "a?b c");
    }
}
