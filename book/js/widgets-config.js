// Tell the ipywidgets manager (embed-amd.js) where its icon fonts are: they are vendored next
// to it in _static/html-manager, but it looks for them relative to the page, under
// "@jupyter-widgets/...", and would get 404s. require.js reads a global `require` object as
// its configuration when it loads, so this file is listed before require.js in _config.yml.
(function () {
  var assets = document.documentElement.dataset.content_root + "_static/html-manager";
  window.__jupyter_widgets_assets_path__ = assets + "/";
  window.require = { paths: { "@jupyter-widgets/html-manager/dist": assets } };
  // The theme's fontawesome.js (loaded with defer, so after this file) replaces every
  // <i class="fa ..."> with an <svg>. The Play widget of the frame players keeps its icons
  // as <i> elements and sets their className: on an <svg> that throws ("Cannot set
  // properties of undefined (setting 'className')") and the player's slider no longer moves
  // its frames. Nested, the <svg> goes inside the <i>, which stays.
  window.FontAwesomeConfig = { autoReplaceSvg: "nest" };
})();
