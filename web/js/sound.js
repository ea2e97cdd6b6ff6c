// Sounds for a move, a capture, low time and the game's end, made with WebAudio (no sound
// files), and the switch that turns them off (kept in the browser).

import { store } from './store.js';

const KEY = 'checkers.sound';
let context = null;

export function soundOn() { return store.get(KEY) !== 'off'; }

export function setSound(on) { store.set(KEY, on ? 'on' : 'off'); }

// Tones for each event: [frequency Hz, start s, length s].
const TONES = {
  move: [[520, 0, 0.07]],
  capture: [[420, 0, 0.06], [640, 0.07, 0.08]],
  low: [[880, 0, 0.09], [880, 0.18, 0.09]],
  end: [[523, 0, 0.15], [659, 0.15, 0.15], [784, 0.3, 0.3]],
};

export function playSound(kind) {
  if (!soundOn() || !TONES[kind]) return;
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return;
  try {
    // Browsers let a page make sound only after the visitor has done something on it; until
    // then the context stays suspended and the tones are silently dropped.
    if (!context) context = new Audio();
    if (context.state === 'suspended') context.resume().catch(() => {});
    const now = context.currentTime;
    for (const [frequency, start, length] of TONES[kind]) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.type = 'sine';
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.2, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(context.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
    }
  } catch (e) { /* no sound is no harm */ }
}
