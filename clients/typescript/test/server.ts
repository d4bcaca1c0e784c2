// The referee the tests play against: REFEREE_URL, and REFEREE_CALLERS (`backend`, the
// default, or `players`: a call for a seat needs that seat's token) as that server was started.
export const url = process.env.REFEREE_URL;
export const callers = process.env.REFEREE_CALLERS ?? "backend";
/** node:test's `skip` of the tests that need a live referee. */
export const skip = url === undefined ? "REFEREE_URL is not set (a referee to play against)" : false;
export const live = url ?? "http://127.0.0.1:8000";
