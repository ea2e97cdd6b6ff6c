// The page's state, shared by the views, and moving between them.

export const app = {
  view: null,
  route: null,       // main.js's router, called on every change of address
  gameId: null,
  state: null,       // last game state from the server
  receivedAt: 0,     // performance.now() when it arrived
  myColor: null,
  flipped: null,     // null: follow my colour
  review: null,      // the engine's review of a finished game: { game, data } once fetched
  reviewing: false,  // a review is being fetched
  viewPly: null,     // in a reviewed game, the move whose position the board shows (-1: the start)
  lines: null,       // the engine's best lines in a reviewed game's positions, fetched as shown:
                     // { game, byPly: { ply: data | 'pending' | 'failed' } }
  games: [],         // the games list view's entries
};

export function navigate(path) {
  history.pushState(null, '', path);
  app.route();
}

export function showView(name) {
  for (const v of document.querySelectorAll('.view')) v.hidden = v.id !== 'view-' + name;
  app.view = name;
}
