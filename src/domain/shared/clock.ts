// The clock port: every time the domain reads comes from it, so that tests move time by hand.

export interface Clock {
  now(): Date;
}
