// The round an event's own log line belongs to (issue 28, point 7). An event that closes a round (the last turn's
// damage, a Sacrifice, the last END_TURN) leaves the state already in the next round; its line still belongs to the
// round it happened in. Only the lines the turnover itself adds ("Round 2 begins") take the new round. Before the
// first round (setup, START) the line takes the round the event leads into.
export function eventRound(before: { round: number }, after: { round: number }): number {
  return before.round >= 1 ? before.round : after.round;
}
