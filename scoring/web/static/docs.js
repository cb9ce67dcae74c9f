// The API page (/docs): Swagger UI from the package itself, never from a CDN, on the origin that keeps the
// table's token. A file of its own because the page's policy allows no inline script.
window.addEventListener("DOMContentLoaded", () => {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
  });
});
