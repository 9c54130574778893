// fmt's compiled part, built once from Debian's own headers. Debian ships fmt as a shared
// library only, and the host links statically but for libc; header-only fmt (FMT_HEADER_ONLY)
// compiled this part again into every file that formats, about 4 s a file. The definitions come
// from fmt's format-inl.h; the four explicit instantiations are those format.h declares extern
// when fmt is not header-only.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {

template FMT_API auto thousands_sep_impl<char>(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto thousands_sep_impl<wchar_t>(locale_ref) -> thousands_sep_result<wchar_t>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API auto decimal_point_impl(locale_ref) -> wchar_t;

}  // namespace detail
FMT_END_NAMESPACE
