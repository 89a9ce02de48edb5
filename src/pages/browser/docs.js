// GET /docs: Swagger UI (swagger-ui-bundle.js, loaded before this file) over the service's OpenAPI
// document. Served as a file: the Content-Security-Policy allows no inline script.
const root = document.getElementById('swagger-ui');
const tryItOut = root.dataset.tryItOut === 'true';

fetch(root.dataset.specUrl)
  .then((response) => {
    if (!response.ok) throw new Error(`${root.dataset.specUrl} answered ${response.status}`);
    return response.json();
  })
  .then((spec) => {
    // "Try it out" sends to the service that serves this page, whatever address the document names.
    const here = { url: window.location.origin, description: 'this service' };
    const servers = (spec.servers ?? []).filter((server) => server.url !== here.url);
    window.ui = window.SwaggerUIBundle({
      spec: { ...spec, servers: [here, ...servers] },
      domNode: root,
      deepLinking: true,
      // Swagger UI would send the document to validator.swagger.io for its badge: no request leaves.
      validatorUrl: null,
      // Production: a read-only reference (no request to live records from a docs page).
      supportedSubmitMethods: tryItOut ? ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] : [],
      presets: [window.SwaggerUIBundle.presets.apis],
      layout: 'BaseLayout',
    });
  })
  .catch((error) => {
    root.textContent = `The API reference could not be loaded: ${error.message}`;
  });
