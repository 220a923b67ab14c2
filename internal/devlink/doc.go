// Package devlink is the private link between package accelerator and the window that
// presents views (present/window): through it the window asks for the instance extensions
// a surface needs before Vulkan is opened, and reaches the Vulkan objects behind an
// accelerator view and its buffers, which goamp's public API does not show. Package
// accelerator installs a Link, typed by its view and buffer types, when it is loaded.
package devlink
