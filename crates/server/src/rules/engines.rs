//! The engine's side of the computer for every variant: the engines an engine thread keeps
//! ([`Engines`], one per position type it has searched lately), and the searches the server
//! asks for, written once for any position type.

use std::any::{Any, TypeId};

use checkers_engine::{Engine, EngineOptions, Limits, SearchInfo, SearchPosition, StopHandle};
use checkers_rules::Position;

/// The engines of one engine thread: English's and Russian's (8x8) always kept, and the one
/// for the board of the variant searched last (a search in another variant makes that one
/// afresh), each made on its first search.
pub struct Engines {
    options: EngineOptions,
    kept: Vec<Box<dyn Any>>,
}

impl Engines {
    pub fn new(options: EngineOptions) -> Engines {
        Engines { options, kept: Vec::new() }
    }

    /// The engine for positions of type `P`, made if there is none.
    pub fn get<P: SearchPosition>(&mut self) -> &mut Engine<P> {
        let index = match self.kept.iter().position(|engine| engine.is::<Engine<P>>()) {
            Some(index) => index,
            None => {
                if TypeId::of::<P>() != TypeId::of::<Position>() {
                    self.kept.retain(|engine| engine.is::<Engine<Position>>());
                }
                self.kept.push(Box::new(Engine::<P>::new(self.options)));
                self.kept.len() - 1
            }
        };
        self.kept[index].downcast_mut::<Engine<P>>().expect("the engine found or made is for P")
    }
}

/// The engine's `count` best lines in `position` (reached through `history`) from a search
/// under `limits`, best first: those of the deepest iteration finished, or the best move
/// alone when none finished; none when there is no move. The same every time: the engine
/// starts afresh.
pub fn best_lines<P: SearchPosition>(
    engine: &mut Engine<P>,
    position: &P,
    history: &[P],
    limits: &Limits,
    count: usize,
) -> Vec<SearchInfo<P::Move>> {
    engine.new_game();
    let mut infos: Vec<SearchInfo<P::Move>> = Vec::new();
    let result = engine.search_lines(position, history, limits, &StopHandle::new(), count, &mut |info| {
        infos.push(info.clone())
    });
    // The deepest iteration finished ranks all its lines (a stopped one reports none).
    let deepest = infos.last().map_or(0, |i| i.depth);
    infos.retain(|i| i.depth == deepest);
    if infos.is_empty() {
        if let Some(mv) = result.best_move {
            infos.push(SearchInfo {
                line: 1,
                depth: result.depth,
                seldepth: result.seldepth,
                score: result.score,
                nodes: result.nodes,
                elapsed: result.elapsed,
                pv: vec![mv],
            });
        }
    }
    infos
}
