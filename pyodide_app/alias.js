// An alias page (/kv-cache-size/) forwards to its entry (/35/), keeping the query and anchor.
(function () {
  var target = document.getElementById("alias-script").getAttribute("data-target");
  location.replace(target + location.search + location.hash);
})();
