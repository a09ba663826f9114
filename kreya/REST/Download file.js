import { expect } from 'chai';

// Checks what every download response carries (README "Downloading with curl").
kreya.rest.onCallCompleted(call => {
  kreya.test('Status code is 200', () => expect(call.status.code).to.equal(200));
  kreya.test('Status is success', () => expect(call.status.isSuccess).to.be.true);
});
