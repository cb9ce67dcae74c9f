// The deck's counts and limits and the score items, as the scoring core has them (a test proves the copies equal).

export const DISTANCE_VALUES = [25, 50, 75, 100, 200];
export const DECK = { 25: 10, 50: 10, 75: 10, 100: 12, 200: 4 };
export const MAX_200S = 2;
export const SAFETIES = ["right_of_way", "extra_tank", "puncture_proof", "driving_ace"];
export const ITEMS = ["distance", "safeties", "all_safeties", "coups_fourres", "trip", "delayed_action", "safe_trip",
  "shut_out", "extension"];
