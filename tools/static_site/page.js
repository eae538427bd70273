// What the served course does on the server, done by each page of the static site
// before the app starts (tools/static_site). The build puts the course's facts in SITE.
(function () {
  "use strict";
  const SITE = __QD_SITE__; // {languages, cookie, kernel, home, served, worker}
  const root = document.documentElement;
  const page = root.dataset.qdLanguage; // set on lesson pages; absent on the home page
  const params = new URLSearchParams(window.location.search);
  const asked = SITE.languages.includes(params.get("lang")) ? params.get("lang") : null;
  let pythonKept = Promise.resolve(); // Python's files kept by its worker (start.js), where it says so

  function remembered() {
    const found = document.cookie.split(";").map((c) => c.trim().split("="))
      .find(([key]) => key === SITE.cookie);
    return found && SITE.languages.includes(decodeURIComponent(found[1] || "")) ? decodeURIComponent(found[1]) : null;
  }
  function remember(language) {
    document.cookie = `${SITE.cookie}=${encodeURIComponent(language)}; path=/; max-age=31536000; SameSite=Lax`;
  }
  // The browser's own language, as tutor.core.i18n.negotiate reads Accept-Language.
  function courseLanguage(tag) {
    const parts = String(tag).toLowerCase().split("-");
    if (parts[0] === "en") return "en";
    if (parts[0] !== "zh") return null;
    if (parts.includes("hans")) return "zh-Hans";
    if (parts.includes("hant") || ["tw", "hk", "mo"].some((r) => parts.includes(r))) return "zh-Hant";
    return "zh-Hans";
  }
  function browserLanguage(tags) {
    for (const tag of tags || []) {
      const language = courseLanguage(tag);
      if (language) return language;
    }
    return "en";
  }
  window.qdSite = { courseLanguage, browserLanguage };

  if (asked) remember(asked);
  if (!page) { // the home page: open the course in the learner's language
    const language = asked || remembered() || browserLanguage(navigator.languages || [navigator.language]);
    window.location.replace(SITE.home.replace("{language}", language) + window.location.search);
    return;
  }
  if (asked && asked !== page) { // a link asking for another language opens that language's page
    window.location.replace(window.location.pathname.replace(`/${page}/`, `/${asked}/`)
      + window.location.search + window.location.hash);
    return;
  }
  // The kernel reads the link as it does under Voila: QUERY_STRING in its environment.
  const config = document.getElementById("jupyter-config-data");
  if (config) {
    const data = JSON.parse(config.textContent || "{}");
    keepSite(data);
    const plugins = data.litePluginSettings = data.litePluginSettings || {};
    const kernel = plugins[SITE.kernel] = plugins[SITE.kernel] || {};
    const options = kernel.loadPyodideOptions = kernel.loadPyodideOptions || {};
    options.env = Object.assign({ HOME: "/home/pyodide" }, options.env || {},
      { QUERY_STRING: window.location.search.replace(/^\?/, "") });
    // The served course this site was built to point to (./dev site --served URL), for what needs a server.
    if (SITE.served) options.env.QD_SERVED_COURSE = SITE.served;
    // The kernel's worker says how Python started (start.js): from the build's snapshot, or
    // the usual way. The page shows it as <html data-qd-python> and window.qdPython. It says
    // next when Python's files are all kept in the browser (keepFetched waits for it).
    if (typeof BroadcastChannel === "function") {
      options.qdChannel = `qd-python-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
      const channel = new BroadcastChannel(options.qdChannel);
      pythonKept = new Promise((kept) => {
        channel.onmessage = (event) => {
          const said = event.data || {};
          if (said.qdPython) {
            window.qdPython = said.qdPython;
            root.dataset.qdPython = said.qdPython.how;
          } else if (said.qdKept) {
            kept();
            channel.close();
          }
        };
      });
    }
    config.textContent = JSON.stringify(data);
    if (kernel.qdEarly && options.qdSnapshotURL) startEarly(data, kernel);
  }
  // The site's service worker (service-worker.js at the site's root) keeps what the page
  // fetches: registered as the page opens. JupyterLite's app looks for a service worker once it
  // is up, to serve the kernel a shared folder of files (its "drive", which the course does not
  // use): it unregisters every service worker unless its note says this version registered it
  // (the note is written here), and it is told there is none, so that the kernel keeps Python's
  // files in the page as it always did.
  function keepSite(data) {
    if (!("serviceWorker" in navigator)) return; // an insecure (http, not this machine) address
    const workers = navigator.serviceWorker;
    const register = workers.register.bind(workers);
    workers.register = () => Promise.reject(new Error("the site's service worker only keeps its files"));
    workers.getRegistration = () => Promise.resolve(undefined);
    try {
      const url = new URL(SITE.worker, new URL(data.baseUrl || "./", window.location.href));
      url.searchParams.set("enableCache", data.enableServiceWorkerCache || "false"); // as JupyterLite names it
      const worker = url.href;
      if (data.appVersion) localStorage.setItem(`${worker}-version`, data.appVersion);
      register(worker).then(() => keepFetched(data)).catch((failure) => console.info("The site's files are not kept:", failure));
    } catch (failure) {
      console.info("The site's files are not kept:", failure);
    }
  }
  // What this page fetched before the service worker was there (on a first visit: all it
  // fetched as it opened), handed to it to keep, with the scripts of the kernel's worker; once
  // kept, <html data-qd-kept> (the lesson opens again offline).
  async function keepFetched(data) {
    const workers = navigator.serviceWorker;
    await workers.ready;
    if (!workers.controller) await new Promise((done) => workers.addEventListener("controllerchange", done, { once: true }));
    const urls = [window.location.href, ...performance.getEntriesByType("resource").map((entry) => entry.name)];
    const kernel = ((data.litePluginSettings || {})[SITE.kernel]) || {};
    if (kernel.qdEarly && kernel.pyodideUrl) {
      const site = new URL(data.baseUrl || "./", window.location.href);
      const start = new URL(kernel.pyodideUrl, window.location.href);
      urls.push(start.href, new URL("pyodide.js", start).href, new URL(kernel.qdEarly.worker, site).href,
                new URL(kernel.qdEarly.kernel, site).href);
    }
    const reply = new MessageChannel();
    reply.port1.onmessage = () => pythonKept.then(() => { root.dataset.qdKept = "yes"; });
    workers.controller.postMessage({ qdKeep: urls.filter((url) => url.startsWith(window.location.origin)) }, [reply.port2]);
  }
  // Python starts as the page opens, not once its app has loaded (a second or more later):
  // the kernel's worker is started now (worker.js, with the options the kernel will give it),
  // and handed to the kernel when it asks for its worker — if it said it is ready; if not, or
  // if the kernel asks for another worker, the kernel gets what it asked for and this one ends.
  function startEarly(data, kernel) {
    const Native = window.Worker;
    if (typeof Native !== "function") return;
    try {
      const site = new URL(data.baseUrl || "./", window.location.href);
      const start = new URL(kernel.pyodideUrl, window.location.href).href;
      const options = { indexURL: start.slice(0, start.lastIndexOf("/") + 1) };
      for (const [key, value] of Object.entries(kernel.loadPyodideOptions)) { // as the kernel resolves them
        options[key] = key.endsWith("URL") && typeof value === "string" ? new URL(value, site).href : value;
      }
      const ours = new URL(kernel.qdEarly.kernel, site);
      const given = { start, options, kernel: ours.href };
      let early = new Native(new URL(kernel.qdEarly.worker, site).href);
      early.postMessage({ qdEarly: given });
      let ready = false;
      early.addEventListener("message", (event) => {
        if (event.data && event.data.qdEarly === "ready") ready = true;
      });
      early.addEventListener("error", () => { ready = false; });
      const folder = ours.pathname.slice(0, ours.pathname.lastIndexOf("/") + 1);
      const Worker = function Worker(url, settings) {
        const asked = new URL(String(url), window.location.href);
        if (early && asked.pathname === ours.pathname && !(settings && settings.type === "module") && ready) {
          const handed = early;
          early = null;
          return handed;
        }
        if (early && asked.pathname.startsWith(folder)) { // the kernel's worker, but not this one
          early.terminate();
          early = null;
        }
        return new Native(url, settings);
      };
      Worker.prototype = Native.prototype;
      window.Worker = Worker;
    } catch (error) {
      console.warn("Python could not start early; it starts with the kernel.", error);
    }
  }
  // The language switch keeps the link's other parameters.
  document.addEventListener("DOMContentLoaded", () => {
    for (const link of document.querySelectorAll(".qd-languages a[hreflang]")) {
      const kept = new URLSearchParams(window.location.search);
      kept.set("lang", link.getAttribute("hreflang"));
      link.setAttribute("href", link.getAttribute("href").split("?")[0] + "?" + kept.toString());
    }
  });
})();
