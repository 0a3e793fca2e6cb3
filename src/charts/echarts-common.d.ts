/**
 * ECharts' prebuilt "common" bundle (line charts, grid, title, legend, the SVG renderer): loaded
 * instead of the package's ES modules, which are some hundred files and cost ~80 MiB RSS to load
 * against ~13 MiB for this one file (measured; render.ts). Its API is the core's.
 */
declare module "echarts/dist/echarts.common.min.js" {
  const echarts: typeof import("echarts/core");
  export default echarts;
}
