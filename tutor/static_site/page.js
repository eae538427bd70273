// What the served course does on the server, done by each page of the static site
// before the app starts (tutor/static_site). The build puts the course's facts in SITE.
(function () {
  "use strict";
  const SITE = __QD_SITE__; // {languages, cookie, kernel, home}
  const root = document.documentElement;
  const page = root.dataset.qdLanguage; // set on lesson pages; absent on the home page
  const params = new URLSearchParams(window.location.search);
  const asked = SITE.languages.includes(params.get("lang")) ? params.get("lang") : null;

  function remembered() {
    const found = document.cookie.split(";").map((c) => c.trim().split("="))
      .find(([key]) => key === SITE.cookie);
    return found && SITE.languages.includes(decodeURIComponent(found[1] || "")) ? decodeURIComponent(found[1]) : null;
  }
  function remember(language) {
    document.cookie = `${SITE.cookie}=${encodeURIComponent(language)}; path=/; max-age=31536000; SameSite=Lax`;
  }
  // The browser's own language, as tutor.i18n.negotiate reads Accept-Language.
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
    const plugins = data.litePluginSettings = data.litePluginSettings || {};
    const kernel = plugins[SITE.kernel] = plugins[SITE.kernel] || {};
    const options = kernel.loadPyodideOptions = kernel.loadPyodideOptions || {};
    options.env = Object.assign({ HOME: "/home/pyodide" }, options.env || {},
      { QUERY_STRING: window.location.search.replace(/^\?/, "") });
    config.textContent = JSON.stringify(data);
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
