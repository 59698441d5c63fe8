// The warm-up notice: while the page waits on the server (a new game, a computer move), it asks
// /api/warmup each second whether numba is compiling, and says so: the first games after an install
// wait on compilation once; later runs load the compiled kernels from numba's cache.
"use strict";

const warmup = (() => {
  let waiting = 0, timer = null;

  function show(status) {
    const box = $("notice");
    box.hidden = !status.compiling;
    if (status.compiling) {
      box.textContent = `compiling, ~${status.estimate_s} s, once: numba compiles the engines' kernels on first use ` +
        `and keeps them in its cache for later runs (${Math.round(status.seconds)} s so far, ${status.functions} functions)`;
    }
  }

  async function poll() {
    try { show(await api("GET", "/api/warmup")); } catch (e) { /* the notice is a courtesy; the request says what failed */ }
  }

  // `promise`'s value, with the notice kept up to date until it settles
  async function track(promise) {
    waiting += 1;
    if (!timer) { timer = setInterval(poll, 1000); setTimeout(poll, 300); }
    try {
      return await promise;
    } finally {
      waiting -= 1;
      if (!waiting) { clearInterval(timer); timer = null; $("notice").hidden = true; }
    }
  }

  return { track, show };
})();
