/** The order the rows of one repetition are measured in: as given on even repetitions, reversed on odd ones. */
export const interleaved = <Row>(rows: ReadonlyArray<Row>, rep: number): ReadonlyArray<Row> =>
  rep % 2 === 0 ? rows : [...rows].reverse()
