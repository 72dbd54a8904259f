// The rules engine started in the background on the pages the offline evening needs it on (the
// match page and the entry pages: protocol/includes/offline.html), once the page is idle, so that
// the first check after the network drops answers at once (./engine.js, startWhenIdle).

import { startWhenIdle } from "./engine.js";

startWhenIdle();
