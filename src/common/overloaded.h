// Overloaded{lambdas...}: one visitor for std::visit from several lambdas.
#pragma once

namespace arfabric {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
// Clang 16 lacks aggregate CTAD (P1816), so spell the guide out.
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

}  // namespace arfabric
