// A default that carries a function `default` of its own, as an object
// exported for both module systems does.
export default {
  default: function inner() {
    return "inner";
  },
};
