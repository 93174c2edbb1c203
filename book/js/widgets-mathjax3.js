// Typeset math in widget labels with the book's MathJax 3.
//
// The ipywidgets views ask their widget manager for a LaTeX typesetter
// (`widget_manager._rendermime.latexTypesetter`, as JupyterLab's manager has since ipywidgets
// 8.1.2, jupyter-widgets/ipywidgets#3847) and only without one fall back to MathJax 2's
// `MathJax.Hub.Queue`, which MathJax 3 does not have: the static page then throws "Cannot read
// properties of undefined (reading 'Queue')" and the math stays raw. The HTML manager of
// @jupyter-widgets/html-manager 1.0.15 (embed-amd.js) has no such typesetter, so this file
// gives it one backed by MathJax 3. Listed after embed-amd.js in _config.yml: the module it
// extends is defined there, and views typeset only after they are displayed, which is later.
(function () {
  var mathjax3 = {
    typeset: function (element) {
      var mj = window.MathJax;
      if (!mj || !mj.startup || !mj.startup.promise) {
        return; // no MathJax 3 on this page: the label keeps its plain text
      }
      mj.startup.promise
        .then(function () { return mj.typesetPromise([element]); })
        .catch(function (error) { console.warn("MathJax could not typeset a widget label", error); });
    },
  };
  window.require(["@jupyter-widgets/html-manager"], function (htmlManager) {
    Object.defineProperty(htmlManager.HTMLManager.prototype, "_rendermime", {
      configurable: true,
      get: function () { return { latexTypesetter: mathjax3 }; },
    });
  });
})();
