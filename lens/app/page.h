// The Lens app page: lens/app/index.html with lens/app/js/*.js inlined, embedded at build time
// (lens/app/embed_page.cmake). Without a profile it opens one from /profile or a picked file.
#ifndef OTPU_LENS_APP_PAGE_H_
#define OTPU_LENS_APP_PAGE_H_

#include <string_view>

namespace otpu::lens {

// The page's bytes (UTF-8 HTML), valid for the life of the program.
std::string_view AppPage();

// Marker inside the page's lens-data element that `lens html` replaces with a profile.
inline constexpr std::string_view kPageDataMarker = "<!--@LENS_DATA@-->";

// Marker inside the page's lens-baseline element that `lens html --baseline` and `lens open
// --baseline` replace with the baseline profile of the compare view.
inline constexpr std::string_view kPageBaselineMarker = "<!--@LENS_BASELINE@-->";

// Marker inside the page's lens-code element that `lens html` and `lens open` replace with the
// text of the kernel source files the profile names (JSON), for the Source view's code.
inline constexpr std::string_view kPageCodeMarker = "<!--@LENS_CODE@-->";

}  // namespace otpu::lens

#endif  // OTPU_LENS_APP_PAGE_H_
