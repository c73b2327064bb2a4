// What the browser keeps for this page between visits: the name, the language and each room's
// seat token (local storage), and a room just created here that joins itself (this tab only).

export const saved = {
  get: (name) => localStorage.getItem(`bananas.${name}`),
  set: (name, value) => localStorage.setItem(`bananas.${name}`, value),
};

const autojoinKey = (roomId) => `bananas.autojoin.${roomId}`;

export const autojoin = {
  mark: (roomId) => sessionStorage.setItem(autojoinKey(roomId), "1"),
  isMarked: (roomId) => Boolean(sessionStorage.getItem(autojoinKey(roomId))),
  clear: (roomId) => sessionStorage.removeItem(autojoinKey(roomId)),
};
