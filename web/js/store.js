// What the page keeps in the browser (localStorage): seat tokens, invitations, the name.
// Private browsing may refuse it; the page then works without it.

export const store = {
  get(key) { try { return localStorage.getItem(key); } catch (e) { return null; } },
  set(key, value) { try { localStorage.setItem(key, value); } catch (e) { /* private mode */ } },
};

export const seatKey = (id) => 'checkers.seat.' + id;
// A friend game's invitation secret, kept by its creator (to show the link) and by whoever
// opened the link (to join with it).
export const inviteKey = (id) => 'checkers.invite.' + id;
