// Tell the ipywidgets manager (embed-amd.js) where its icon fonts are: they are vendored next
// to it in _static/html-manager, but it looks for them relative to the page, under
// "@jupyter-widgets/...", and would get 404s. require.js reads a global `require` object as
// its configuration when it loads, so this file is listed before require.js in _config.yml.
(function () {
  var assets = document.documentElement.dataset.content_root + "_static/html-manager";
  window.__jupyter_widgets_assets_path__ = assets + "/";
  window.require = { paths: { "@jupyter-widgets/html-manager/dist": assets } };
})();
