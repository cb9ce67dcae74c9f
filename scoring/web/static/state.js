// What the page shows, shared by every part of it: one object, changed in place.

export const COLOURS = ["#e4572e", "#2e86de", "#17a673", "#d99a00", "#8e44ad", "#c0392b", "#16a085", "#7f8c8d"];
export const TOKEN_KEY = "borne.token";

export const state = {
  game: null,       // the game document shown
  games: [],        // summaries, newest first
  followLatest: false,
  rules: [],
  chartStep: null,  // hand shown by the race chart while replaying (null: all)
  replayTimer: null,
  entry: null,      // the hand being entered or fixed
  camera: null,     // GET /api/camera (null until read; camera: false with borne serve)
  liveHand: null,   // GET /api/camera/hand, then the SSE "camera" events
  zones: null,      // the zone editor: GET /api/camera/layout and the zones being drawn
  photo: null,      // the photo being counted or proposed (photo.js)
};
