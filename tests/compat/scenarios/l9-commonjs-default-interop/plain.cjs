// module.exports is a function with a property.
module.exports = function plain() {
  return "plain";
};
module.exports.extra = "extra";
