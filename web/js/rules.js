// The site's game rules on the game page (docs/protocol.md, "The site's game rules" and
// "Accounts and rated games"): abort before both sides have moved, a claim against a player
// who left, takebacks in casual games, the opponent's rematch request, clocks that wait for the
// first moves, and a rated game's rating change.

const other = (color) => (color === 'white' ? 'black' : 'white');
const colorName = (color) => (color === 'white' ? 'White' : 'Black');

function who(s, color) {
  const p = s.players[color];
  return (p && p.name) || colorName(color);
}

// "1500 → 1662 (+162)", from a rated game's `ratings` entry.
export function ratingChange(r) {
  const before = Math.round(r.before);
  const after = Math.round(r.after);
  const diff = after - before;
  return before + ' → ' + after + ' (' + (diff >= 0 ? '+' : '−') + Math.abs(diff) + ')';
}

// What the players and watchers should know now, one sentence each.
function notices(s, seated, me) {
  const out = [];
  const playing = s.status === 'playing';
  if (playing && s.clock && !s.clock.running) out.push('The clocks start once both sides have moved.');
  if (playing && s.gone) {
    out.push(seated && s.gone === me ? 'You were away: your opponent may claim the game.'
      : who(s, s.gone) + ' left the game.' + (seated ? ' You may claim the victory or call it a draw.' : ''));
  }
  if (playing && s.takeback_offer) {
    out.push(!seated ? colorName(s.takeback_offer) + ' asks to take back a move.'
      : s.takeback_offer === me ? 'You asked to take back your last move.' : 'Your opponent asks to take back their last move.');
  }
  const offers = s.rematch_offers || {};
  if (s.status === 'finished' && !s.rematch_game) {
    if (seated && offers[other(me)] && !offers[me]) out.push('Your opponent asks for a rematch.');
    else if (!seated && (offers.white || offers.black)) out.push(who(s, offers.white ? 'white' : 'black') + ' asks for a rematch.');
  }
  if (s.ratings) {
    if (seated && s.ratings[me]) out.push('Your rating: ' + ratingChange(s.ratings[me]) + '.');
    else {
      for (const color of ['white', 'black']) {
        if (s.ratings[color]) out.push(who(s, color) + "'s rating: " + ratingChange(s.ratings[color]) + '.');
      }
    }
  }
  return out;
}

const show = (id, visible) => { document.getElementById(id).hidden = !visible; };

export function renderRules(s, seated, me) {
  const box = document.getElementById('rules-notice');
  const lines = notices(s, seated, me);
  box.replaceChildren(...lines.map((text) => { const p = document.createElement('p'); p.textContent = text; return p; }));
  box.hidden = !lines.length;
  const playing = s.status === 'playing' && seated;
  show('btn-abort', playing && s.ply < 2);
  const claimable = playing && s.gone && s.gone !== me;
  show('btn-claim-win', claimable);
  show('btn-claim-draw', claimable);
  const theirOffer = playing && s.takeback_offer && s.takeback_offer !== me;
  show('btn-takeback', playing && !s.rated && s.ply > 0 && !s.takeback_offer);
  show('btn-takeback-accept', theirOffer);
  show('btn-takeback-decline', theirOffer);
}

// The buttons' actions; `action(msg)` sends a message about this game with the seat's token.
export function initRules(action) {
  document.getElementById('btn-abort').onclick = () => { if (confirm('Abort this game? It ends with no result.')) action({ t: 'abort' }); };
  document.getElementById('btn-claim-win').onclick = () => action({ t: 'claim', draw: false });
  document.getElementById('btn-claim-draw').onclick = () => action({ t: 'claim', draw: true });
  document.getElementById('btn-takeback').onclick = () => action({ t: 'takeback', action: 'offer' });
  document.getElementById('btn-takeback-accept').onclick = () => action({ t: 'takeback', action: 'accept' });
  document.getElementById('btn-takeback-decline').onclick = () => action({ t: 'takeback', action: 'decline' });
}
