//! The variants a Hub session plays, by the names GUIs and clients send for them.

use std::fmt;

use checkers_rules::board::BoardVariant;
use checkers_rules::Variant;

/// A variant the Hub plays: English or Russian on the 8x8 code of
/// [`Position`](checkers_rules::Position), or any variant of the rules library's boards of any
/// size ([`Board`](checkers_rules::board::Board)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HubVariant {
    Eight(Variant),
    Board(BoardVariant),
}

/// Other names clients send for a variant, with where each comes from: pydraughts' own variant
/// names (`Board(variant=...)`, its `_convert_variant_names`), lidraughts' variant keys, and
/// Scan's Hub names, which lidraughts-bot sends to Hub engines (`parse_variant`: `standard`
/// and `fromPosition` become `normal`, `antidraughts` `losing`, `breakthrough` `bt`).
const ALIASES: [(&str, HubVariant); 8] = [
    // pydraughts
    ("american", HubVariant::Eight(Variant::English)),
    // pydraughts and lidraughts
    ("standard", HubVariant::Board(BoardVariant::International)),
    ("from position", HubVariant::Board(BoardVariant::International)),
    ("fromposition", HubVariant::Board(BoardVariant::International)),
    // pydraughts' internal name, lidraughts' display name
    ("frysk!", HubVariant::Board(BoardVariant::Frysk)),
    // Scan, lidraughts-bot
    ("normal", HubVariant::Board(BoardVariant::International)),
    ("losing", HubVariant::Board(BoardVariant::Antidraughts)),
    ("bt", HubVariant::Board(BoardVariant::Breakthrough)),
];

impl HubVariant {
    /// Every variant, English and Russian first, then the boards' in their documented order.
    pub const ALL: [HubVariant; 16] = {
        let mut all = [HubVariant::Eight(Variant::English); 16];
        all[1] = HubVariant::Eight(Variant::Russian);
        let mut i = 0;
        while i < BoardVariant::ALL.len() {
            all[i + 2] = HubVariant::Board(BoardVariant::ALL[i]);
            i += 1;
        }
        all
    };

    /// The variant's name on the wire (as on the command line).
    pub fn name(self) -> &'static str {
        match self {
            HubVariant::Eight(variant) => variant.name(),
            HubVariant::Board(variant) => variant.name(),
        }
    }

    /// The variant a name or alias stands for, ignoring case.
    pub fn parse(text: &str) -> Option<HubVariant> {
        let text = text.trim().to_ascii_lowercase();
        Self::ALL
            .into_iter()
            .find(|v| v.name() == text)
            .or_else(|| ALIASES.iter().find(|(alias, _)| *alias == text).map(|&(_, v)| v))
    }

    /// Every variant's name, separated by `separator`.
    pub fn names(separator: &str) -> String {
        Self::ALL.map(HubVariant::name).join(separator)
    }
}

impl From<Variant> for HubVariant {
    fn from(variant: Variant) -> HubVariant {
        HubVariant::Eight(variant)
    }
}

impl From<BoardVariant> for HubVariant {
    fn from(variant: BoardVariant) -> HubVariant {
        HubVariant::Board(variant)
    }
}

impl fmt::Display for HubVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_name_their_variants() {
        assert_eq!(
            HubVariant::names(" "),
            "english russian international brazilian canadian frisian frysk antidraughts breakthrough \
             italian spanish portuguese czech pool thai turkish"
        );
        for variant in HubVariant::ALL {
            assert_eq!(HubVariant::parse(variant.name()), Some(variant));
            assert_eq!(HubVariant::parse(&variant.name().to_ascii_uppercase()), Some(variant));
        }
        let international = Some(HubVariant::Board(BoardVariant::International));
        for alias in ["standard", "normal", "fromPosition", "from position"] {
            assert_eq!(HubVariant::parse(alias), international, "{alias}");
        }
        assert_eq!(HubVariant::parse("frysk!"), Some(HubVariant::Board(BoardVariant::Frysk)));
        assert_eq!(HubVariant::parse("losing"), Some(HubVariant::Board(BoardVariant::Antidraughts)));
        assert_eq!(HubVariant::parse("bt"), Some(HubVariant::Board(BoardVariant::Breakthrough)));
        assert_eq!(HubVariant::parse("American"), Some(HubVariant::Eight(Variant::English)));
        for unknown in ["killer", "chess", "", "checkers", "international draughts"] {
            assert_eq!(HubVariant::parse(unknown), None, "{unknown}");
        }
    }
}
