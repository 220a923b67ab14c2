// Package pipecache keeps Vulkan pipeline caches on disk between processes, so that a
// program's second run does not compile its kernels' pipelines again (no cold start). It is plain Go: it reads and writes the bytes that vkGetPipelineCacheData
// returns, and knows their header, so that a corrupt file, or one written by another
// device or driver, is ignored rather than handed to the driver. internal/vk creates the
// VkPipelineCache; accelerator joins the two.
//
// The files live under the user's cache directory (os.UserCacheDir()/goamp/pipelines),
// one per device and driver version; GOAMP_PIPELINE_CACHE=off turns the cache off and
// GOAMP_PIPELINE_CACHE=DIR moves it. A file is replaced atomically (written beside it, then
// renamed), so that concurrent processes never read half of one. Nothing here returns an
// error to a kernel's caller: a cache that cannot be read or written only costs time.
//
// It imports nothing of goamp's.
package pipecache
