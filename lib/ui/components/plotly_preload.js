// Import Streamlit's own plotly.js chunk from the folder its main script came from, so a
// plotly chart drawn later finds the module loaded (one module per URL in a tab). It waits
// for the browser's first idle moment, so the page being drawn goes first.
export default function (component) {
  const chunk = component.data && component.data.chunk;
  const main = document.querySelector('script[type="module"][src*="/static/js/index."]');
  if (!chunk || !main || !/^PlotlyChart\.[\w-]+\.js$/.test(chunk)) {
    return;
  }
  const load = () =>
    import(new URL(chunk, main.src).href).catch(() => {
      // the chart loads it itself, as without this component
    });
  if (window.requestIdleCallback) {
    window.requestIdleCallback(load, { timeout: 1000 });
  } else {
    setTimeout(load, 0);
  }
}
