// A view of a virtual pi module: the names one import asks for, each from
// the module of pihost's that defines it (src/modules/virtual_views.rs).
