# Install test (label install): cmake --install into a fresh prefix, then a
# program outside the tree is built with pkg-config and mpicc and run on 2
# ranks.  Not in the SimGrid build (no mpicc program runs there) nor in the
# sanitizer build (the program would load an instrumented libvine.so without
# the sanitizer runtime).
if(NOT VINE_SMPI AND NOT VINE_SANITIZE)
  add_test(NAME install_pkgconfig
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/check_install.sh ${CMAKE_BINARY_DIR}
            ${CMAKE_BINARY_DIR}/install-test)
  set_tests_properties(install_pkgconfig PROPERTIES LABELS install TIMEOUT 300)
endif()
