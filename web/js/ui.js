// Small pieces of the page shared by every view: the toast, the banner, elements, labels.
// Every text that comes from other people is put on the page with textContent, never as HTML.

const SVG_NS = 'http://www.w3.org/2000/svg';

// An SVG element with attributes, appended to `parent` if given.
export function svgEl(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.append(node);
  return node;
}

export function span(text, cls) {
  const e = document.createElement('span');
  e.className = cls;
  e.textContent = text;
  return e;
}

export function toast(text) {
  const el = document.getElementById('toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 4000);
}

export function showBanner(text, cls) {
  const b = document.getElementById('banner');
  b.textContent = text;
  b.className = 'banner ' + (cls || '');
  b.hidden = !text;
}

export function copy(inputId) {
  const input = document.getElementById(inputId);
  input.select();
  if (navigator.clipboard) navigator.clipboard.writeText(input.value).then(() => toast('Copied'), () => {});
  else document.execCommand('copy');
}

export function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }

export function clockLabel(clock) {
  if (!clock) return 'untimed';
  const minutes = clock.base_ms / 60000;
  const base = minutes >= 1 ? minutes + ' min' : clock.base_ms / 1000 + ' s';
  return clock.increment_ms ? base + ' + ' + clock.increment_ms / 1000 + ' s' : base;
}

export function variantLabel(v) { return v === 'russian' ? 'Russian' : 'English'; }

export function reasonLabel(code) {
  return ({
    no_legal_move: 'no legal move', resignation: 'resignation', time: 'time', agreement: 'agreement',
    threefold_repetition: 'repetition', forty_move_rule: '40-move rule', aborted: 'withdrawn',
  })[code] || (code ? code.replace(/_/g, ' ') : '');
}
